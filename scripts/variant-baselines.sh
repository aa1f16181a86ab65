#!/bin/bash
# The variant player against the greedy and random baselines over wedge server: 10 x 10,
# random:8 layouts (seed 7), TIME seconds a player a game (default 5; the course used 120), 10
# games with each colour; prints nothing, writes srv-<opponent>-<wedge colour>.txt (the
# server's summary) in the current directory.
W=${W:-target/release/wedge}
TIME=${TIME:-5}
for opp in greedy random; do for wc in white red; do
  oc=$([ $wc = white ] && echo red || echo white)
  $W server --games 10 --port 0 --time $TIME --layout random:8 --seed 7 > srv-$opp-$wc.txt 2>&1 &
  sleep 0.5; port=$(head -n1 srv-$opp-$wc.txt | sed 's/.*://')
  $W client --colour $wc --port $port --player wedge > /dev/null 2>&1 &
  $W client --colour $oc --port $port --player $opp > /dev/null 2>&1
  wait
done; done
