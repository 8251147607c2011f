"""PyInstaller entry for the window: the same `desktop.app:main` the `citeline-desktop` script runs."""

import multiprocessing
import sys

if __name__ == "__main__":
    # The extraction worker (engine/ingest/sandbox.py) is a spawned process: in a frozen app it starts
    # this executable again, and freeze_support turns that start into the worker instead of a window.
    multiprocessing.freeze_support()
    from desktop.app import main

    sys.exit(main())
