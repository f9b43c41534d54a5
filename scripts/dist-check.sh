#!/usr/bin/env bash
# Install the .deb `make dist` / `make dist-debug` built, check what it installed, start the
# app the way a menu does with a Markdown file (gtk-launch on the installed desktop entry,
# under Xvfb), screenshot it to target/dist-check.png, and uninstall the package.
#
#   scripts/dist-check.sh [DIR_OR_DEB]   (default: target/debug/bundle/deb)
#
# It installs and removes a system package, so it runs as root, or in CI (CI set) with
# passwordless sudo. The Debian packages it needs are installed first (a fresh machine).
#
# A cowriting package it did not install itself (the writer's own app) is never replaced
# or removed: then the same checks run on the .deb unpacked into a scratch folder
# (dpkg-deb -x) instead of installed — the CLI and the app from there first on PATH, the
# desktop entry found there first (XDG_DATA_DIRS), its MIME cache built there — and the
# installed package is left as it was. DIST_CHECK_SCRATCH=1 checks that way in any case
# (no root needed then, unless a tool the check uses is missing).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
pkg=cowriting
desktop_id=Cowriting
shot="$here/target/dist-check.png"
wait_secs=${DIST_CHECK_WAIT:-120}

say() { printf 'dist-check: %s\n' "$*"; }
fail() {
  printf 'dist-check: FAILED: %s\n' "$*" >&2
  exit 1
}

sudo=""
# Root, or sudo in CI, for what changes the system: installing the package, or a tool.
need_root() {
  [ "$(id -u)" -ne 0 ] || return 0
  [ -z "$sudo" ] || return 0
  if [ -n "${CI:-}" ] && sudo -n true 2>/dev/null; then
    sudo="sudo"
  else
    echo "dist-check $1, so it runs as root" >&2
    echo "(or in CI with passwordless sudo). Try: sudo make dist-check" >&2
    exit 1
  fi
}

src=${1:-"${CARGO_TARGET_DIR:-$here/target}/debug/bundle/deb"}
if [ -d "$src" ]; then
  # shellcheck disable=SC2012 # the newest of Tauri's own file names (no odd characters)
  deb=$(ls -t "$src"/*.deb 2>/dev/null | head -1 || true)
else
  deb=$src
fi
if [ -z "$deb" ] || [ ! -f "$deb" ]; then
  fail "no .deb in $src (build one with 'make dist' or 'make dist-debug')"
fi
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")

# A package installed by someone else is never replaced or removed, in CI or not: the
# check then runs on the .deb unpacked into a scratch folder (mode "scratch"). One an
# earlier dist-check installed and could not remove (it was killed) carries this mark,
# and is replaced and removed as the check's own.
mark=/var/lib/cowriting-dist-check/installed
mode=install
if [ -n "${DIST_CHECK_SCRATCH:-}" ]; then
  mode=scratch
  say "DIST_CHECK_SCRATCH: checking the .deb unpacked into a scratch folder, not installed"
elif dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" && [ ! -e "$mark" ]; then
  mode=scratch
  say "the package '$pkg' $(dpkg-query -W -f='${Version}' "$pkg") is installed here, not by dist-check: it is left alone"
  say "(neither replaced nor removed); the .deb is checked unpacked into a scratch folder instead of installed"
fi
[ "$mode" = scratch ] || need_root "installs and removes the system package '$pkg'"

# What the check itself needs: Xvfb, gtk-launch (libgtk-3-bin), xdotool, xwininfo
# and xprop (x11-utils), import (imagemagick), desktop-file-validate and the MIME cache
# (desktop-file-utils, installed before the package so its trigger runs), git.
need=(xvfb xauth libgtk-3-bin xdotool x11-utils imagemagick desktop-file-utils git)
missing=()
for p in "${need[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# apt_get: apt-get that waits for another apt's locks (scripts/apt.sh).
. "$(dirname "${BASH_SOURCE[0]}")/apt.sh"
apt_updated=""
apt_update() {
  [ -n "$apt_updated" ] || { apt_get update -qq; apt_updated=1; }
}
if [ ${#missing[@]} -gt 0 ]; then
  need_root "installs what it needs (${missing[*]})"
  say "installing what the check needs: ${missing[*]}"
  apt_update
  apt_get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

tmp=$(mktemp -d /tmp/cowriting-dist-check.XXXXXX)
xvfb_pid=""
app_pid=""
installed=""
cleanup() {
  status=$?
  [ -z "$app_pid" ] || kill "$app_pid" 2>/dev/null || true
  [ -z "$xvfb_pid" ] || kill "$xvfb_pid" 2>/dev/null || true
  if [ -n "$installed" ]; then
    say "removing the package"
    apt_get remove -y -qq "$pkg" >/dev/null && $sudo rm -f "$mark" || status=1
    if command -v cowriting >/dev/null 2>&1 || [ -e /usr/bin/cowriting-desktop ]; then
      echo "dist-check: FAILED: the binaries are still there after removing the package" >&2
      status=1
    fi
  fi
  rm -rf "$tmp"
  exit $status
}
trap cleanup EXIT

# ---- install (or unpack) --------------------------------------------------------
# $root: where the package's files are (/ installed; the scratch folder unpacked).
root=""
if [ "$mode" = install ]; then
  say "installing $deb"
  apt_update
  installed=1
  $sudo mkdir -p "$(dirname "$mark")"
  $sudo touch "$mark"
  apt_get install -y -qq --reinstall "$deb" >/dev/null
  dpkg-query -W -f='${Package} ${Version} ${Status}\n' "$pkg"
  dpkg-query -W -f='Depends: ${Depends}\n' "$pkg"
  pkg_files() { dpkg -L "$pkg"; }
else
  root="$tmp/root"
  say "unpacking $deb into $root (dpkg-deb -x; not installed)"
  dpkg-deb -x "$deb" "$root"
  [ "$(dpkg-deb -f "$deb" Package)" = "$pkg" ] || fail "the .deb is not the package '$pkg': $(dpkg-deb -f "$deb" Package)"
  dpkg-deb -f "$deb" Package Version Depends
  # Not installed, so apt did not pull its dependencies in: each must be here already (the
  # app from the scratch folder runs on them).
  deps=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/([^)]*)//; s/|.*//; s/^ *//; s/ *$//' | grep . || true)
  for d in $deps; do
    dpkg-query -W -f='${Status}' "$d" 2>/dev/null | grep -q "install ok installed" ||
      fail "the package depends on $d, which is not installed here (apt-get install $d)"
  done
  say "its dependencies are installed: $(echo "$deps" | tr '\n' ' ')"
  # Its files, as installed paths (/usr/bin/cowriting).
  pkg_files() { dpkg-deb -c "$deb" | awk '{print $6}' | sed 's#^\./##; s#^#/#'; }
  PATH="$root/usr/bin:$PATH"
  export PATH
fi

# ---- the CLI on PATH -----------------------------------------------------------
[ "$(command -v cowriting)" = "$root/usr/bin/cowriting" ] || fail "cowriting is not $root/usr/bin/cowriting on PATH ($(command -v cowriting || echo none))"
[ "$(command -v cowriting-desktop)" = "$root/usr/bin/cowriting-desktop" ] || fail "cowriting-desktop is not on PATH"
cowriting --help | grep -q '^Usage: cowriting' || fail "cowriting --help did not print its usage"
say "cowriting --help: ok ($(cowriting --help | sed -n 1p))"

# A sample workspace in a git work tree; the document is in a subfolder, so opening it
# must open the work tree (not notes/) with notes/meeting.md in a tab.
ws="$tmp/My notes"
mkdir -p "$ws"
cp -R "$here/examples/workspace/." "$ws/"
git -C "$ws" init -q
doc="$ws/notes/meeting.md"
(cd "$tmp" && cowriting --json -w "$ws" status >/dev/null) || fail "cowriting status on the sample failed"
# Harper is built in (the CLI is built with --features harper).
(cd "$ws" && cowriting --json suggest story.md --producer harper >/dev/null) || fail "cowriting suggest --producer harper failed (built without Harper?)"
say "cowriting status and the built-in Harper producer: ok"

# ---- the desktop entry ----------------------------------------------------------
entry=$(pkg_files | grep '^/usr/share/applications/.*\.desktop$' | head -1)
[ -n "$entry" ] || fail "the package installs no desktop entry"
entry="$root$entry"
[ "$(basename "$entry" .desktop)" = "$desktop_id" ] || fail "unexpected desktop entry $entry"
say "desktop entry $entry:"
sed 's/^/    /' "$entry"
desktop-file-validate "$entry" || fail "desktop-file-validate: $entry"
field() { sed -n "s/^$1=//p" "$entry" | head -1; }
exec_line=$(field Exec)
case "$exec_line" in
  "cowriting-desktop %f" | "cowriting-desktop %F" | "cowriting-desktop %u" | "cowriting-desktop %U") ;;
  *) fail "Exec=$exec_line: expected cowriting-desktop with a file field code" ;;
esac
field MimeType | tr ';' '\n' | grep -qx text/markdown || fail "MimeType lacks text/markdown"
field Categories | tr ';' '\n' | grep -qx TextEditor || fail "Categories lacks TextEditor"
icon=$(field Icon)
icons=$(ls "$root"/usr/share/icons/hicolor/*/apps/"$icon".png 2>/dev/null || true)
[ -n "$icons" ] || fail "Icon=$icon: no $root/usr/share/icons/hicolor/*/apps/$icon.png installed"
say "Icon=$icon resolves to: $(echo "$icons" | sed "s#^$root/usr/share/icons/hicolor/##; s#/apps/.*##" | tr '\n' ' ')"
# Installed, desktop-file-utils' trigger built the MIME cache; unpacked, it is built here
# the same way, in the scratch folder only.
[ -z "$root" ] || update-desktop-database "$root/usr/share/applications"
grep -q "^text/markdown=.*$desktop_id.desktop" "$root/usr/share/applications/mimeinfo.cache" ||
  fail "the MIME cache does not list $desktop_id.desktop for text/markdown"
say "the MIME cache offers $desktop_id.desktop for text/markdown"

# ---- launch it as a menu does, with a file, under Xvfb --------------------------------
exec 5>"$tmp/display"
Xvfb -displayfd 5 -screen 0 1280x800x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
exec 5>&-
for _ in $(seq 50); do [ -s "$tmp/display" ] && break; sleep 0.2; done
[ -s "$tmp/display" ] || fail "Xvfb did not start: $(cat "$tmp/xvfb.log")"
DISPLAY=":$(head -1 "$tmp/display")"
export DISPLAY
say "Xvfb on $DISPLAY; gtk-launch $desktop_id '$doc'"
# Its own home, so the check leaves the user's settings and recent folders alone.
mkdir -p "$tmp/home"
# Unpacked: the scratch folder's entry found first (before an installed one of the same
# name), and its Exec's cowriting-desktop from there (PATH, above).
data_dirs=${XDG_DATA_DIRS:-/usr/local/share:/usr/share}
[ -z "$root" ] || data_dirs="$root/usr/share:$data_dirs"
started=$(date +%s)
(cd "$tmp/home" && HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share" \
  XDG_DATA_DIRS="$data_dirs" COWRITING_TIMING=1 gtk-launch "$desktop_id" "$doc") >"$tmp/app.log" 2>&1 ||
  fail "gtk-launch $desktop_id failed: $(cat "$tmp/app.log")"

win=""
while [ $(($(date +%s) - started)) -lt "$wait_secs" ]; do
  # By class: the title is the document's once the UI has it ("meeting.md — My notes").
  win=$(xdotool search --onlyvisible --class '^cowriting-desktop$' 2>/dev/null | head -1 || true)
  [ -n "$win" ] && break
  sleep 1
done
[ -n "$win" ] || fail "no Cowriting window within ${wait_secs} s; the app said: $(cat "$tmp/app.log")"
app_pid=$(xdotool getwindowpid "$win")
say "window $win (pid $app_pid) after $(($(date +%s) - started)) s: $(xwininfo -id "$win" | sed -n 's/^xwininfo: //p')"
wm_class=$(xprop -id "$win" WM_CLASS | sed 's/.*= //')
say "WM_CLASS $wm_class (the entry's StartupWMClass=$(field StartupWMClass))"
case "$wm_class" in *"\"$(field StartupWMClass)\""*) ;; *) fail "StartupWMClass does not match the window's WM_CLASS" ;; esac
cmdline=$(tr '\0' ' ' <"/proc/$app_pid/cmdline")
say "the app was started as: $cmdline"
exe=$(readlink "/proc/$app_pid/exe")
[ "$exe" = "$root/usr/bin/cowriting-desktop" ] || fail "the app started is $exe, not the package's $root/usr/bin/cowriting-desktop"
say "the app started is the package's: $exe"
case "$cmdline" in *"$doc"*) ;; *) fail "the app was not given the file" ;; esac
# The UI says when its first document is editable (COWRITING_TIMING).
while [ $(($(date +%s) - started)) -lt "$wait_secs" ] && ! grep -q 'first document editable' "$tmp/app.log"; do
  sleep 1
done
grep -q 'first document editable' "$tmp/app.log" || fail "the UI never showed a document; the app said: $(cat "$tmp/app.log")"
say "$(grep 'first document editable' "$tmp/app.log")"
# The window title names the document and its workspace.
want_title="meeting.md — $(basename "$ws")"
title=""
while [ $(($(date +%s) - started)) -lt "$wait_secs" ]; do
  title=$(xdotool getwindowname "$win" 2>/dev/null || true)
  [ "$title" = "$want_title" ] && break
  sleep 1
done
[ "$title" = "$want_title" ] || fail "the window title is '$title', not '$want_title'"
say "window title: $title"
# The window maps before WebKit paints (longer on a loaded machine): screenshot until the
# picture is more than a blank window (a few colours), within the same bound.
mkdir -p "$(dirname "$shot")"
colours=0
while [ $(($(date +%s) - started)) -lt "$wait_secs" ]; do
  import -display "$DISPLAY" -window root "$shot"
  colours=$(identify -format '%k' "$shot")
  [ "$colours" -gt 200 ] && break
  sleep 1
done
[ "$colours" -gt 200 ] || fail "the window stayed blank ($colours colours) for ${wait_secs} s"
sleep 1
import -display "$DISPLAY" -window root "$shot"
say "screenshot: $shot (it should show '$(basename "$ws")' with notes/meeting.md open in a tab)"
kill "$app_pid"
app_pid=""
say "ok"
