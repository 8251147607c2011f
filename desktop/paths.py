"""Where the desktop app finds its assets and keeps its own state (all under the data dir)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from PySide6.QtCore import QSettings

ORGANISATION = "Citeline"
APPLICATION = "Citeline"


def assets_dir() -> Path:
    """assets/ beside the package in a checkout; sys._MEIPASS/assets in a frozen build."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "assets"
    return Path(__file__).resolve().parents[1] / "assets"


def icon_path() -> Path:
    return assets_dir() / "icons" / "citeline.svg"


def style_path() -> Path:
    return Path(__file__).with_name("style.qss")


def ui_settings(home: Path) -> QSettings:
    """Window geometry and recent questions: an INI file in the data dir (tests stay in their tmp dir)."""
    return QSettings(str(home / "desktop.ini"), QSettings.Format.IniFormat)


def copy_demo(home: Path) -> Path:
    """Copy the bundled demo folder into the data dir, so the install itself stays read-only."""
    target = home / "demo"
    shutil.copytree(assets_dir() / "demo", target, dirs_exist_ok=True)
    return target
