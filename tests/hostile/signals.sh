#!/usr/bin/env bash
# SIGINT, SIGTERM and SIGHUP during a run: the temporary files of the outputs are
# removed, the outputs named are left as they were, and the tool exits 128 + the
# signal (130, 143, 129).  signals.sh CYCLE_SIM
. "$(dirname "$0")/lib.sh"
sim=$1
set -m  # job control: a background job of a script would start with SIGINT ignored, which the tool keeps
for pair in INT:130 TERM:143 HUP:129; do
    sig=${pair%%:*} want=${pair##*:}
    echo keep >result.json
    # A run of minutes, writing two files.
    "$sim" --dims 32,32 --rate 0.2 --measure 100000000 --work-limit 1e9 --output result.json \
        --node-stats nodes.csv >/dev/null 2>"$work/.err" &
    pid=$!
    for _ in $(seq 300); do  # until its temporary files exist (at most 30 s)
        [ -n "$(find . -maxdepth 1 -name '.nodes.csv.??????')" ] && break
        sleep 0.1
    done
    [ -n "$(find . -maxdepth 1 -name '.nodes.csv.??????')" ] || { status=-1; fail "SIG$sig: no temporary file seen"; }
    sleep 0.5
    kill "-$sig" "$pid"
    wait "$pid"
    status=$? err=$(cat "$work/.err") out=""
    expect_status "$want" "SIG$sig"
    expect_file result.json keep "SIG$sig"
    [ ! -e nodes.csv ] || fail "SIG$sig: nodes.csv was written"
    expect_no_temporaries "SIG$sig"
done
# Started with SIGHUP ignored (nohup): a hangup leaves the run going; SIGTERM still ends it, cleanly.
(trap '' HUP; exec "$sim" --dims 32,32 --rate 0.2 --measure 100000000 --work-limit 1e9 --output result.json \
    >/dev/null 2>"$work/.err") &
pid=$!
for _ in $(seq 300); do
    [ -n "$(find . -maxdepth 1 -name '.result.json.??????')" ] && break
    sleep 0.1
done
kill -HUP "$pid"
sleep 1
kill -0 "$pid" 2>/dev/null || { status=-1; fail "nohup: SIGHUP ended a run started with it ignored"; }
kill -TERM "$pid"
wait "$pid"
status=$? err=$(cat "$work/.err") out=""
expect_status 143 "nohup, then SIGTERM"
expect_no_temporaries "nohup, then SIGTERM"
finish
