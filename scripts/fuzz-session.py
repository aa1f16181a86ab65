#!/usr/bin/env python3
"""Random sessions against the engine process, in one of its three protocols: commands real
clients send (positions, searches of every kind, stops, option changes, queries, tools), mixed with
malformed and out-of-range ones. Checks what the protocols promise: the process never exits or
panics (and exits with status 0 at `quit`), every bounded `go` ends with `bestmove` (wedge), every
GTP command gets its `=`/`?` answer, every NBoard `go` its `===` move (or the game-over status line)
and every `ping` its `pong`, and `isready` its `readyok`. An answer is waited for, not matched to
its command: a missing answer hidden by a stray earlier one goes unseen.

usage: scripts/fuzz-session.py WEDGE_BINARY wedge|gtp|nboard SEED [STEPS]
  e.g. for s in $(seq 1 20); do scripts/fuzz-session.py target/release/wedge wedge $s 400; done
On a failure it prints the seed, what it waited for and the last commands sent, and exits 1; the
same seed sends the same commands (the engine's timing still varies from run to run). Depths stay small: an unbounded search (`go` alone, NBoard
`set depth 60` from the start) is the protocols' own promise to search on, not a hang.
"""
import queue, random, subprocess, sys, threading, time

W, MODE, SEED = sys.argv[1], sys.argv[2], int(sys.argv[3])
STEPS = int(sys.argv[4]) if len(sys.argv) > 4 else 300
rng = random.Random(SEED)


class Engine:
    def __init__(self, args):
        self.p = subprocess.Popen([W] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1, errors='replace')
        self.lines, self.err, self.sent = queue.Queue(), [], []
        threading.Thread(target=self._out, daemon=True).start()
        threading.Thread(target=self._err, daemon=True).start()

    def _out(self):
        for l in self.p.stdout:
            self.lines.put(l.rstrip('\n'))
        self.lines.put(None)

    def _err(self):
        for l in self.p.stderr:
            self.err.append(l)

    def fail(self, why):
        self.p.kill()
        print(f'FAIL {MODE} seed {SEED}: {why}')
        print('\n'.join('> ' + c for c in self.sent[-15:]))
        print('stderr:', ''.join(self.err[-10:]))
        sys.exit(1)

    def send(self, line):
        self.sent.append(line)
        try:
            self.p.stdin.write(line + '\n')
            self.p.stdin.flush()
        except BrokenPipeError:
            self.fail('the engine closed its input')

    def wait(self, done, seconds, what):
        end = time.time() + seconds
        while True:
            if time.time() > end:  # also when the engine writes other lines all the while
                self.fail(f'no {what} within {seconds} s')
            try:
                l = self.lines.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                self.fail(f'no {what} within {seconds} s')
            if l is None:
                self.fail(f'the engine exited waiting for {what}')
            if done(l):
                return l

    def drain(self):
        while True:
            try:
                l = self.lines.get_nowait()
            except queue.Empty:
                break
            if l is None:
                self.fail('the engine exited')
        if any('panicked' in l for l in self.err):
            self.fail('panic')

    def quit(self, line):
        self.send(line)
        try:
            status = self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.fail(f'still running 10 s after {line!r}')
        time.sleep(0.1)  # the stderr reader's last lines
        if any('panicked' in l for l in self.err):
            self.fail('panic')
        if status != 0:
            self.fail(f'exit status {status}')
        print(f'ok {MODE} seed {SEED}')


SQUARES = [c + r for r in '12345678' for c in 'abcdefgh']
OPENINGS = ['f5 d6 c3 d3 c4', 'f5 f6 e6 f4', 'c4 c3', 'd3 c5 f6 f5 e6 e3', '']


def junk(words):
    return ' '.join(rng.choice(words) for _ in range(rng.randint(0, 8)))


def wedge_session():
    words = ['uci', 'ugi', 'isready', 'ucinewgame', 'go', 'stop', 'position', 'setoption', 'name',
             'value', 'depth', 'movetime', 'nodes', 'moves', 'startpos', 'board', 'fen', 'query',
             'pass', '0000', '-1', '99999999999999999999', '', '\t', 'é', 'perft', 'bench', 'd',
             'eval', 'ponderhit', 'infinite', 'exact', 'wld', 'searchmoves', 'variant', 'blocked']
    options = {
        'Hash': ['1', '2', '16', '0', '-5', 'x', '99999999999'], 'Threads': ['1', '2', '3', '0', '300'],
        'MultiPV': ['1', '2', '5', '64', '65'], 'Ponder': ['true', 'false', 'maybe'],
        'OwnBook': ['true', 'false'], 'BookRandomness': ['0', '3', '70', '-1'],
        'Level': [str(k) for k in range(0, 12)], 'Selectivity': ['73', '87', '99', '100', '101', '50'],
        'Randomness': ['0', '100', '2000', '2001'], 'Seed': ['0', '7', '-1'],
        'MoveOverhead': ['0', '30', '60'], 'EvalFile': ['/nonexistent', '/dev/zero', '/tmp', '', 'README.md'],
        'BookFile': ['/nonexistent', '/dev/null', '', 'protocol.md'], 'Clear Hash': [''],
        'Contempt': ['3'], 'AlphaBeta': ['true', 'false'], 'MoveOrder': ['best', 'scanline', 'bad']}

    def position():
        k = rng.random()
        if k < 0.35:
            return 'position startpos moves ' + rng.choice(OPENINGS)
        if k < 0.5:
            return 'position startpos moves ' + ' '.join(rng.choice(SQUARES) for _ in range(rng.randint(1, 6)))
        if k < 0.7:
            cells = ''.join(rng.choice('XO--') for _ in range(64))
            if rng.random() < 0.3:  # a board near its end
                cells = ''.join(rng.choice('XO') for _ in range(56)) + '-' * 8
            return f'position board {cells} {rng.choice("XOxz")}'
        if k < 0.8:
            return rng.choice(['position fen 8/8/8/3ox3/3xo3/8/8/8 x', 'position fen 8/8/8/3ox3/3xo3/8/8 x',
                               'position fen 9/8/8/3ox3/3xo3/8/8/8 o', 'position fen x'])
        if k < 0.9:
            return (f'position variant {rng.choice([3, 4, 6, 8, 10, 17])}x{rng.choice([4, 6, 8, 10])}'
                    + rng.choice(['', ' blocked a1', ' moves a1']))
        return 'position ' + junk(words)

    def go():
        k = rng.random()
        if k < 0.3:
            parts = [f'depth {rng.randint(1, 9)}']
        elif k < 0.55:
            parts = [f'movetime {rng.randint(1, 80)}']
        elif k < 0.65:
            parts = [f'nodes {rng.randint(1, 100000)}']
        elif k < 0.8:
            parts = [f'wtime {rng.randint(-100, 3000)} btime {rng.randint(-100, 3000)}']
            if rng.random() < 0.5:
                parts.append(f'winc {rng.randint(0, 100)} binc {rng.randint(0, 100)}')
            if rng.random() < 0.3:
                parts.append(f'movestogo {rng.randint(0, 20)}')
        elif k < 0.85:
            parts = ['exact movetime 50']
        elif k < 0.9:
            parts = [rng.choice(['wld depth 6', 'exact depth 5', 'mate 2 depth 4'])]
        else:
            parts = [rng.choice(['depth x', 'depth 3 depth 4', 'exact wld', 'movetime', 'foo',
                                 'p1time 10 btime 10'])]
        if rng.random() < 0.1:
            parts.append('searchmoves ' + ' '.join(rng.choice(SQUARES) for _ in range(rng.randint(1, 3))))
        rng.shuffle(parts)
        return 'go ' + ' '.join(parts)

    e = Engine([])
    e.send(rng.choice(['uci', 'ugi']))
    e.wait(lambda l: l in ('uciok', 'ugiok'), 10, 'uciok')
    bestmove = lambda l: l.startswith('bestmove')
    for _ in range(STEPS):
        a = rng.random()
        if a < 0.2:
            e.send(position())
        elif a < 0.45:
            e.send(go())
            e.wait(bestmove, 30, 'bestmove')
        elif a < 0.52:  # unbounded searches, answered after stop
            e.send('go ' + rng.choice(['infinite', 'ponder', '', 'ponder movetime 20', 'infinite depth 5']))
            time.sleep(rng.random() * 0.1)
            if rng.random() < 0.3:
                e.send(rng.choice(['isready', 'query gameover', 'd', 'eval', 'position startpos',
                                   'go depth 2', 'setoption name Hash value 2']))
            e.send(rng.choice(['stop', 'ponderhit']))
            e.send('stop')
            e.wait(bestmove, 30, 'bestmove after stop')
        elif a < 0.65:
            name = rng.choice(list(options))
            value = rng.choice(options[name])
            e.send(f'setoption name {name}' + (f' value {value}' if value or rng.random() < 0.5 else ''))
        elif a < 0.72:
            e.send(rng.choice(['query gameover', 'query p1turn', 'query result', 'query x', 'd', 'eval',
                               'help', 'ucinewgame', 'uginewgame', 'debug on', 'debug off', 'stop',
                               'ponderhit']))
        elif a < 0.77:
            e.send(f'perft {rng.randint(0, 5)}')
            if rng.random() < 0.3:
                e.send('stop')
        elif a < 0.8:
            e.send(f'bench {rng.choice(["1", "2", "x", "0", "61"])}')
            e.send('stop')
        elif a < 0.9:
            e.send(junk(words))
            e.send('stop')  # a stray `go` without limits searches until stop
        else:
            e.send('isready')
            e.wait(lambda l: l == 'readyok', 30, 'readyok')
        e.drain()
    e.send('isready')
    e.wait(lambda l: l == 'readyok', 60, 'the last readyok')
    e.quit('quit')


def gtp_session():
    e = Engine(['--protocol', 'gtp'])
    squares = SQUARES + ['pass', 'PASS', 'z9', '']
    colours = ['b', 'w', 'black', 'white', 'x', '']

    def command(c):
        e.send(c)
        if c.strip() == '' or c.strip().startswith('#'):
            return  # GTP ignores empty lines and comments
        e.wait(lambda l: l.startswith('=') or l.startswith('?'), 70, f'an answer to {c!r}')
        e.wait(lambda l: l == '', 5, f'the blank line after the answer to {c!r}')

    command('time_settings 0 1 1')
    for _ in range(STEPS):
        k = rng.random()
        if k < 0.3:
            c = f'play {rng.choice(colours)} {rng.choice(squares)}'
        elif k < 0.4:
            c = f'genmove {rng.choice(colours)}'
        elif k < 0.45:
            c = f'reg_genmove {rng.choice(colours)}'
        elif k < 0.55:
            c = rng.choice(['undo', 'final_score', 'showboard', 'clear_board', 'list_commands', 'name',
                            'version', 'protocol_version', 'list_games', 'set_game Othello',
                            'set_game Go', 'boardsize 8', 'boardsize 19', 'komi 5', 'komi x',
                            'known_command genmove'])
        elif k < 0.62:
            c = f'time_settings {rng.randint(-1, 3)} {rng.randint(0, 2)} {rng.randint(0, 3)}'
        elif k < 0.67:
            c = f'time_left {rng.choice(colours)} {rng.randint(-1, 5)} {rng.randint(0, 3)}'
        elif k < 0.75:
            c = f'set_depth {rng.choice([-1, 0, 1, 5, 10, 12, 61, 99])}'
        elif k < 0.82:
            c = (f'set_option {rng.choice(["Hash", "Level", "Threads", "Foo", "Clear Hash", "MultiPV", "Randomness"])}'
                 f' {rng.choice(["1", "2", "5", "x", "", "99999999999"])}')
        elif k < 0.87:
            c = f'loadggf {rng.choice(["/nonexistent", "/dev/zero", "README.md", "/tmp"])} {rng.randint(-1, 5)}'
        elif k < 0.9:
            c = f'{rng.randint(1, 99)} name'
        else:
            c = junk(['play', 'b', 'genmove', '=', '?', '#', 'é', '\t', '1', '-1'])
        command(c)
        e.drain()
    e.quit('quit')


def nboard_session():
    e = Engine([])
    start = 'BO[8 ---------------------------O*------*O--------------------------- *]'
    games = [f'(;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[0]TY[8]{start}B[F5]W[F6]B[E6]W[F4];)',
             f'(;GM[Othello]TI[5:00/2]TY[8]{start}B[F5//1.5]W[D6/0.5/2];)',
             f'(;GM[Othello]TI[0:01]{start};)',
             '(;GM[Othello]BO[8 --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- *];)',
             '(;GM[Othello]BO[8 ' + 'O' * 64 + ' *];)', '(;GM[Othello]BO[9 x];)', '(;GM[Othello',
             f'(;GM[Othello]TI[-5]{start};)', 'garbage']
    squares = [s.upper() for s in SQUARES] + ['PA', 'pass', 'Z9']
    GAME_OVER = 'status wedge: the game is over, there is no move to play'
    pings = [0]

    def ping():
        pings[0] += 1
        e.send(f'ping {pings[0]}')
        e.wait(lambda l: l == f'pong {pings[0]}', 70, 'pong')

    e.send('nboard 2')
    e.wait(lambda l: l.startswith('set myname'), 10, 'set myname')
    e.send('set depth 6')
    for _ in range(STEPS):
        k = rng.random()
        if k < 0.2:
            e.send('set game ' + rng.choice(games))
        elif k < 0.35:
            e.send('move ' + rng.choice(squares) + rng.choice(['', '/1.0/0.2', '/x', '//']))
        elif k < 0.5:
            ping()  # nothing of an earlier command left to read
            e.send('go')
            e.wait(lambda l: l.startswith('===') or l == GAME_OVER, 70, 'the move')
            ping()
        elif k < 0.58:
            e.send(f'hint {rng.randint(-1, 4)}')
            time.sleep(rng.random() * 0.2)
            ping()
        elif k < 0.62:
            e.send('analyze')
            time.sleep(rng.random() * 0.3)
            ping()
        elif k < 0.7:
            e.send(f'set depth {rng.choice(["1", "4", "8", "0", "x", ""])}')
        elif k < 0.76:
            e.send(f'set option {rng.choice(["Hash", "Level", "Threads", "Foo", "Clear Hash", "MultiPV", "OwnBook"])}'
                   f' {rng.choice(["1", "2", "true", "x", ""])}')
        elif k < 0.8:
            e.send(rng.choice(['learn', 'set contempt 3', 'nboard 1', 'nboard x', 'set', 'quux']))
        elif k < 0.85:
            ping()
        else:
            e.send(junk(['set', 'game', 'move', 'go', 'hint', 'ping', '(;', 'é', '1', '-1']))
            ping()  # a stray `go` or `hint` is answered before the pong
        e.drain()
    ping()
    e.quit('quit')


{'wedge': wedge_session, 'gtp': gtp_session, 'nboard': nboard_session}[MODE]()
