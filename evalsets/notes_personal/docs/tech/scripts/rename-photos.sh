#!/usr/bin/env bash
# rename phone photos to YYYY-MM-DD_HHMMSS.jpg using the EXIF date
# usage: rename-photos.sh ~/Pictures/import
# needs: exiftool (sudo dnf install perl-Image-ExifTool)
# written Aug 2025 after Mull - 600 of Joel's photos all called IMG_xxxx
set -euo pipefail
dir="${1:?folder please}"
exiftool -d '%Y-%m-%d_%H%M%S%%-c.%%le' '-FileName<DateTimeOriginal' "$dir"
# files without EXIF (screenshots, whatsapp) are left alone - move them by hand
echo "done. check for leftovers:"
find "$dir" -maxdepth 1 -iname 'IMG_*' | head
