"""PyInstaller entry for the window: the same `desktop.app:main` the `citeline-desktop` script runs."""

import sys

from desktop.app import main

if __name__ == "__main__":
    sys.exit(main())
