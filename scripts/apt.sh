# Sourced by scripts/deps.sh and scripts/dist-check.sh (which set $sudo).
# Another apt (an unattended upgrade, apt's daily timer, a second terminal) may hold one of
# its locks: wait for it, up to 10 minutes, rather than fail at once. DPkg::Lock::Timeout
# makes apt-get wait for dpkg's lock, but apt 2.6 (Debian 12) does not wait for the package
# lists' lock (apt-get update) or the downloads' (/var/cache/apt/archives) with it, so a
# command refused for a lock is run again every 5 s (a refused one has done nothing yet).
apt_get() {
  local err start said=""
  err=$(mktemp)
  start=$(date +%s)
  while ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@" 2>"$err"; do
    if grep -q 'Could not get lock' "$err" && [ $(($(date +%s) - start)) -lt 600 ]; then
      [ -n "$said" ] || echo "Waiting for another apt to finish: $(grep -m1 'Could not get lock' "$err" | sed 's/^E: //')" >&2
      said=1
      sleep 5
    else
      cat "$err" >&2
      rm -f "$err"
      return 1
    fi
  done
  cat "$err" >&2
  rm -f "$err"
}
