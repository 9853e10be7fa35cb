#!/usr/bin/env bash
# Runs a command (default: scripts/test.sh) beside a stand-in for the user's own PulseAudio server and
# checks that the command left that server exactly as it was: still running (same process), the same
# sinks (a custom "usersink" among them) and the same default sink and source. The stand-in listens on
# the default socket of XDG_RUNTIME_DIR, where any client that forgot PULSE_SERVER would find it.
#   scripts/check-server-isolation.sh [command...]
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- scripts/test.sh
user_dir=$(mktemp -d "${TMPDIR:-/tmp}/oca-user-pulse.XXXXXX")
mkdir -p "$user_dir/pulse"
pulseaudio_pid=""
cleanup() {
    [ -n "$pulseaudio_pid" ] && kill "$pulseaudio_pid" 2>/dev/null
    rm -rf "$user_dir"
}
trap cleanup EXIT
# The "user's" server: default socket under its runtime directory, one custom sink as the default.
env XDG_RUNTIME_DIR="$user_dir" HOME="$user_dir" pulseaudio --daemonize=no --exit-idle-time=-1 --system=no -n \
    --use-pid-file=no --load="module-native-protocol-unix socket=$user_dir/pulse/native auth-anonymous=1" \
    --load="module-null-sink sink_name=usersink" >/dev/null 2>&1 < /dev/null &
pulseaudio_pid=$!
user_pactl() { env -u PULSE_SERVER XDG_RUNTIME_DIR="$user_dir" pactl "$@"; }
for _ in $(seq 100); do user_pactl info >/dev/null 2>&1 && break; sleep 0.1; done
user_pactl set-default-sink usersink && user_pactl set-default-source usersink.monitor || {
    echo "check-server-isolation: the stand-in user server did not start" >&2; exit 1; }
state() {
    echo "pid $(kill -0 "$pulseaudio_pid" 2>/dev/null && echo "$pulseaudio_pid" || echo gone)"
    user_pactl list short sinks | cut -f2
    user_pactl list short sources | cut -f2
    echo "default sink $(user_pactl get-default-sink 2>&1)"
    echo "default source $(user_pactl get-default-source 2>&1)"
}
before=$(state)

# The command sees the user's runtime directory (and no PULSE_SERVER of ours), as on a desktop.
env -u PULSE_SERVER XDG_RUNTIME_DIR="$user_dir" "$@"
status=$?

after=$(state)
if [ "$before" != "$after" ]; then
    echo "check-server-isolation: FAILED: the user's server changed" >&2
    diff <(echo "$before") <(echo "$after") >&2
    exit 1
fi
echo "check-server-isolation: the user's server is as it was (running, $(echo "$before" | grep -c .) state lines unchanged)"
exit $status
