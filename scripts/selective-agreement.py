#!/usr/bin/env python3
"""How often the selective midgame search (Selectivity 73) picks another move than the full-width
search (Selectivity 100) of the same depth, and the nodes each spends.

usage: scripts/selective-agreement.py WEDGE_BINARY DEPTHS POSITIONS
  e.g. scripts/selective-agreement.py target/release/wedge 6,8,10 200

Positions: the first POSITIONS of data/mpc/scores-d12.txt with 20-50 empty squares. Each search
starts from a new game (ucinewgame), without the book. Run from the repository root.
"""
import subprocess, sys
W=sys.argv[1]; depths=[int(x) for x in sys.argv[2].split(',')]; n=int(sys.argv[3])
pos=[]
for line in open('data/mpc/scores-d12.txt'):
    if line.startswith('#'): continue
    w=line.split(); b=w[0]
    e=b.count('-')
    if 20<=e<=50: pos.append((b,w[1],e))
pos=pos[:n]
def run(sel, depth):
    p=subprocess.Popen([W],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True,bufsize=1)
    def send(s): p.stdin.write(s+'\n'); p.stdin.flush()
    send('uci'); send('setoption name OwnBook value false'); send(f'setoption name Selectivity value {sel}')
    out=[]; nodes=0
    for b,s,e in pos:
        send('ucinewgame'); send(f'position board {b} {s}'); send(f'go depth {depth}')
        last=None
        while True:
            l=p.stdout.readline()
            if l.startswith('info depth') and ' pv ' in l:
                last=l
            if l.startswith('bestmove'):
                out.append(l.split()[1]); break
        if last:
            ws=last.split(); nodes+=int(ws[ws.index('nodes')+1])
    send('quit'); p.wait()
    return out,nodes
for d in depths:
    a,na=run(73,d); f,nf=run(100,d)
    diff=sum(1 for x,y in zip(a,f) if x!=y)
    print(f"depth {d}: {len(a)} positions, best move differs in {diff} ({100*diff/len(a):.1f}%), nodes 73%: {na}, full width: {nf} ({nf/max(na,1):.1f}x)")
