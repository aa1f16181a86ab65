#!/bin/bash
# The variant player against itself one level (search depth in plies) lower, over wedge server:
# 10 x 10, random:8 layouts (seed 7), 10 games with the stronger side as white and 10 as red for
# each level N in LEVELS (default 2 3 4 5 6 7 8). Prints one line a level: N, games, the stronger
# side's wins, draws and losses, and its discs against the weaker side's.
W=${W:-target/release/wedge}
LEVELS=${LEVELS:-2 3 4 5 6 7 8}
TIME=${TIME:-600}
tmp=$(mktemp -d)
for n in $LEVELS; do
  for wc in white red; do
    oc=$([ $wc = white ] && echo red || echo white)
    $W server --games 10 --port 0 --time $TIME --layout random:8 --seed 7 > $tmp/srv-$n-$wc.txt 2>&1 &
    sleep 0.5; port=$(head -n1 $tmp/srv-$n-$wc.txt | sed 's/.*://')
    $W client --colour $wc --port $port --level $n > /dev/null 2>&1 &
    $W client --colour $oc --port $port --level $((n - 1)) > /dev/null 2>&1
    wait
  done
  # The summary's lines: "white ADDR: W wins, L losses, D draws, N discs (...)".
  cat $tmp/srv-$n-white.txt | grep '^white .* wins, ' | sed 's/.*: //' > $tmp/a
  cat $tmp/srv-$n-red.txt | grep '^red .* wins, ' | sed 's/.*: //' >> $tmp/a
  cat $tmp/srv-$n-white.txt | grep '^red .* wins, ' | sed 's/.*: //' > $tmp/b
  cat $tmp/srv-$n-red.txt | grep '^white .* wins, ' | sed 's/.*: //' >> $tmp/b
  awk -v n=$n 'FNR==NR { w+=$1; l+=$3; d+=$5; s+=$7; next } { o+=$7 }
    END { printf "level %d vs %d: %d games, +%d =%d -%d, discs %d-%d\n", n, n-1, w+l+d, w, d, l, s, o }' $tmp/a $tmp/b
done
rm -rf $tmp
