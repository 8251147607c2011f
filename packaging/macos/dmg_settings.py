# dmgbuild settings for Citeline.dmg. Used by `python packaging/build.py dmg`, which passes
#   -D app=build/dist/Citeline.app -D icon=build/icons/citeline.icns
# `defines` is provided by dmgbuild when it executes this file.
import os.path

application = defines.get("app", "build/dist/Citeline.app")  # noqa: F821
appname = os.path.basename(application)

format = "UDZO"
filesystem = "HFS+"
size = None
files = [application]
symlinks = {"Applications": "/Applications"}
badge_icon = defines.get("icon")  # noqa: F821
icon_locations = {appname: (140, 120), "Applications": (500, 120)}
background = "builtin-arrow"
window_rect = ((100, 100), (640, 280))
default_view = "icon-view"
show_status_bar = False
show_tab_view = False
show_toolbar = False
show_pathbar = False
show_sidebar = False
icon_size = 96
