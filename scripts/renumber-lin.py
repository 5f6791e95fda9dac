#!/usr/bin/env python3
"""A .lin workload with its variables numbered in another order: each variable index goes through a random
permutation (seeded), the constraints, edits and suggestions stay in their order. The optimum is the same system's,
so the values are too, each under its new number (the `u` lines' sums agree; their hashes, which follow the
numbering, do not). A solver whose cost depends on the order variables were made in shows it here (docs/NOTES.md,
"Variables numbered in another order").

    scripts/renumber-lin.py IN.lin OUT.lin [SEED]
"""
import random
import sys


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) == 4 else 1
    with open(src) as f:
        lines = f.read().split("\n")
    n = next(int(line.split()[1]) for line in lines if line.startswith("v "))
    perm = list(range(n))
    random.Random(seed).shuffle(perm)
    out = []
    for line in lines:
        t = line.split()
        if t and t[0] == "c":      # c ID OP STRENGTH CONST COEF VAR [COEF VAR ...]
            for i in range(6, len(t), 2):
                t[i] = str(perm[int(t[i])])
            line = " ".join(t)
        elif t and t[0] in ("e", "x", "s"):   # e VAR PRIORITY, x VAR, s VAR VALUE
            t[1] = str(perm[int(t[1])])
            line = " ".join(t)
        out.append(line)
    with open(dst, "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
