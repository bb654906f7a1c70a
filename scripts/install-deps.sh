#!/bin/sh
# Installs the Debian/Ubuntu packages socload needs, only those that are missing.
# Silent when everything is there; otherwise says what it installs, or the exact command to run.
set -eu

missing=""
for package in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $package"
    fi
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "socload needs these packages (or your system's equivalent):$missing" >&2
    exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
else
    echo "socload needs:$missing" >&2
    echo "Run as root: apt-get update && apt-get install -y$missing" >&2
    exit 1
fi

echo "Installing missing packages:$missing"
if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq$missing; } >/dev/null; then
    echo "Could not install the packages. Run: sudo apt-get update && sudo apt-get install -y$missing" >&2
    exit 1
fi
