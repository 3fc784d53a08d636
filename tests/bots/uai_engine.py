#!/usr/bin/env python3
"""uai_engine: a scripted UAI Ataxx engine for the referee's `uai:` tests.

It answers the handshake (`uai` -> `uaiok`, `isready` -> `readyok`), reads
`position fen FEN` (walls `-` included; `position startpos` too), and answers
each `go` with some `info` chatter and `bestmove` of the first legal move: the
first empty square next to one of its pieces (a spawn, `b6`), else the first
jump (`a7c5`), else `0000`. Every `position` and `go` line it reads is echoed
to stderr, so a test can see what the referee sent. It exits on `quit`.

Usage: uai_engine.py MODE [AFTER]

AFTER (default 0) is how many `go` it answers well before MODE takes over:

- ok: legal moves all game.
- crash: exits with status 3 (with AFTER 0, before answering `uai`).
- hang: never answers `go` again (sleeps).
- garbage: answers `bestmove e9x`.
- illegal: answers a spawn onto one of its own pieces, well formed but
  illegal.
- chatter: legal moves, each after a line that is neither `info` nor
  `bestmove` and a long `info` line (lines other than `bestmove` are passed
  over).
"""

import sys
import time

SIDE = 7


def square(file, rank):
    return "abcdefg"[file] + str(rank + 1)


def parse_fen(fen):
    """The board as {(file, rank): char} of 'x', 'o', '-', and the side to move."""
    fields = fen.split()
    board = {}
    for i, row in enumerate(fields[0].split("/")):
        rank = SIDE - 1 - i
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                board[(file, rank)] = ch
                file += 1
    side = fields[1] if len(fields) > 1 else "x"
    return board, side


def first_legal(board, side):
    own = [sq for sq, ch in sorted(board.items(), key=lambda kv: (kv[0][1], kv[0][0])) if ch == side]
    empty = [
        (f, r) for r in range(SIDE) for f in range(SIDE) if (f, r) not in board
    ]
    for f, r in empty:
        if any(max(abs(f - a), abs(r - b)) == 1 for a, b in own):
            return square(f, r)
    for a, b in own:
        for f, r in empty:
            if max(abs(f - a), abs(r - b)) == 2:
                return square(a, b) + square(f, r)
    return "0000"


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if mode == "crash" and after == 0:
        sys.exit(3)
    board, side = parse_fen("x5o/7/7/7/7/7/o5x x 0 1")
    answered = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uai":
            say("id name uai_engine.py")
            say("id author gridtune tests")
            say("uaiok")
        elif command == "isready":
            say("readyok")
        elif command == "position":
            sys.stderr.write(line)
            if len(words) > 1 and words[1] == "fen":
                board, side = parse_fen(" ".join(words[2:]))
            else:
                board, side = parse_fen("x5o/7/7/7/7/7/o5x x 0 1")
        elif command == "go":
            sys.stderr.write(line)
            sys.stderr.flush()
            move = first_legal(board, side)
            if answered >= after and mode != "ok" and mode != "chatter":
                if mode == "crash":
                    sys.exit(3)
                if mode == "hang":
                    time.sleep(1000)
                if mode == "garbage":
                    move = "e9x"
                if mode == "illegal":
                    move = next(square(f, r) for (f, r), ch in sorted(board.items()) if ch == side)
            if mode == "chatter":
                say("Reading a network from nowhere")
                say("info string " + "x" * 5000)
            say("info depth 1 score cp 0 pv " + move)
            say("bestmove " + move)
            answered += 1
        elif command == "quit":
            return


if __name__ == "__main__":
    main()
