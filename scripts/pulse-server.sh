#!/usr/bin/env bash
# Starts a PulseAudio server without a sound card, for the device tests and tools: two null sinks, "out"
# (the default output; its monitor is where tests listen) and "mic" (whose monitor is the default input,
# so what is played into "mic" is what a recording hears). Idempotent: an already running server is
# given the sinks it lacks.
set -euo pipefail
# Starts a command in the background that outlives this script holding none of our caller's descriptors
# (a caller waiting on them would otherwise wait forever).
detached() {
    ( for fd in $(ls /proc/$BASHPID/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
      exec "$@" ) >/dev/null 2>&1 < /dev/null &
}
started=0
if ! pactl info >/dev/null 2>&1; then
    started=1
    detached pulseaudio --daemonize=yes --exit-idle-time=-1 --system=no -n --realtime=yes --high-priority=yes \
        --load=module-native-protocol-unix --log-target=stderr
    for _ in $(seq 50); do pactl info >/dev/null 2>&1 && break; sleep 0.1; done
fi
pactl info >/dev/null 2>&1 || { echo "pulse-server: PulseAudio did not start" >&2; exit 1; }
for sink in out mic; do
    pactl list short sinks | cut -f2 | grep -qx "$sink" ||
        pactl load-module module-null-sink sink_name="$sink" sink_properties=device.description="$sink" >/dev/null
done
# Route the defaults to the null sinks only on a server started here (a desktop's own defaults are left
# alone; the device tests route them for their duration).
if [ "$started" = 1 ]; then
    pactl set-default-sink out
    pactl set-default-source mic.monitor
fi
# The server must keep up when the machine is busy: give all its threads (the sinks' IO threads too,
# created above) real-time priority above its clients' IO threads, as a desktop's rtkit setup would.
if [ "$started" = 1 ]; then chrt -f -a -p 15 "$(pidof pulseaudio | cut -d' ' -f1)" >/dev/null 2>&1 || true; fi
# An idle null sink's thread sleeps for up to its 2 s maximum latency before it notices a new stream, so a
# stream starting on it can stall for up to that long. A silent 10 ms stream on each sink keeps them
# running at low latency (silence mixed in changes nothing).
for sink in out mic; do
    if ! pgrep -f "^pacat -p -d $sink --latency-msec=10" >/dev/null; then
        detached setsid pacat -p -d "$sink" --latency-msec=10 --raw --format=s16le --rate=44100 --channels=2 /dev/zero
    fi
done
