#!/usr/bin/env bash
# A private PulseAudio server for the device tests, tools and benchmarks on a machine without a sound card:
# its own runtime directory and socket, so it never touches a server the user runs (their sinks, defaults
# and configuration stay as they are). Two null sinks: "out" (the default output; its monitor is where
# tests listen) and "mic" (its monitor is the default input, so what is played into "mic" is what a
# recording hears).
#   scripts/pulse-server.sh start DIR   starts the server in DIR (idempotent: a running one gets what it lacks)
#                                       and prints PULSE_SERVER=unix:DIR/native for the clients
#   scripts/pulse-server.sh stop DIR    stops the server in DIR and its keeper streams, nothing else
# Every client (pactl, parec, pacat, and our code through ALSA's pulse plugin) reaches it through the
# PULSE_SERVER variable.
set -euo pipefail
command=${1:-}
dir=${2:-}
[ -n "$command" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
export PULSE_SERVER="unix:$dir/native"
# The server's own home: its cookie, its state, nothing of the user's.
server_env=(env XDG_RUNTIME_DIR="$dir" HOME="$dir" PULSE_RUNTIME_PATH="$dir/runtime" PULSE_STATE_PATH="$dir/state")

# Starts a command in the background that outlives this script holding none of our caller's descriptors
# (a caller waiting on them would otherwise wait forever).
detached() {
    ( for fd in $(ls /proc/$BASHPID/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
      exec "$@" ) >/dev/null 2>&1 < /dev/null &
}

stop() {
    if [ -f "$dir/keepers" ]; then
        while read -r pid; do kill "$pid" 2>/dev/null || true; done < "$dir/keepers"
        rm -f "$dir/keepers"
    fi
    pactl exit >/dev/null 2>&1 || true
    if [ -f "$dir/server.pid" ]; then
        pid=$(cat "$dir/server.pid")
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
        rm -f "$dir/server.pid"
    fi
}

case "$command" in
stop)
    stop
    exit 0
    ;;
start) ;;
*) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac

started=0
if ! pactl info >/dev/null 2>&1; then
    started=1
    rm -f "$dir/native"
    # auth-anonymous: clients run with the user's HOME, whose cookie is not this server's.
    detached "${server_env[@]}" pulseaudio --daemonize=no --exit-idle-time=-1 --system=no -n --realtime=yes --high-priority=yes \
        --use-pid-file=no --disable-shm=yes \
        --load="module-native-protocol-unix socket=$dir/native auth-anonymous=1" --log-target=stderr
    echo $! > "$dir/server.pid"
    for _ in $(seq 100); do pactl info >/dev/null 2>&1 && break; sleep 0.1; done
fi
pactl info >/dev/null 2>&1 || { echo "pulse-server: PulseAudio did not start in $dir" >&2; exit 1; }
for sink in out mic; do
    pactl list short sinks | cut -f2 | grep -qx "$sink" ||
        pactl load-module module-null-sink sink_name="$sink" sink_properties=device.description="$sink" >/dev/null
done
pactl set-default-sink out
pactl set-default-source mic.monitor
# Every test starts from the server's own levels: a test that sets a device's volume (one channel at 0.5, then the
# main control to 1, which keeps the channels' ratio) must not quieten what the next test hears.
for sink in out mic; do
    pactl set-sink-volume "$sink" 100% && pactl set-sink-mute "$sink" 0
    pactl set-source-volume "$sink.monitor" 100% && pactl set-source-mute "$sink.monitor" 0
done
# The server must keep up when the machine is busy: give all its threads (the sinks' IO threads too,
# created above) real-time priority above its clients' IO threads, as a desktop's rtkit setup would.
if [ "$started" = 1 ]; then chrt -f -a -p 15 "$(cat "$dir/server.pid")" >/dev/null 2>&1 || true; fi
# An idle null sink's thread sleeps for up to its 2 s maximum latency before it notices a new stream, so a
# stream starting on it can stall for up to that long. A silent 10 ms stream on each sink keeps them
# running at low latency (silence mixed in changes nothing).
if [ "$started" = 1 ] || [ ! -f "$dir/keepers" ]; then
    rm -f "$dir/keepers"
    for sink in out mic; do
        detached setsid pacat -p -d "$sink" --latency-msec=10 --raw --format=s16le --rate=44100 --channels=2 /dev/zero
        echo $! >> "$dir/keepers"
    done
    # Return only once the keepers play and the sinks are awake: until then the first stream a client starts (a
    # test's, a tool's) stalls for up to two seconds (the first device test of a run, alone, failed that way).
    for _ in $(seq 100); do [ "$(pactl list short sink-inputs | wc -l)" -ge 2 ] && break; sleep 0.05; done
    # Then until each null sink has woken from its idle sleep (its reported latency counts down from ~2 s).
    for _ in $(seq 60); do
        pactl list sinks | awk '/Latency:/ { if ($2 > 100000) late = 1 } END { exit late }' && break
        sleep 0.1
    done
fi
echo "PULSE_SERVER=$PULSE_SERVER"
