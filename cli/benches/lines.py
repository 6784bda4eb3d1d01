#!/usr/bin/env python3
"""Summarise the memory traces of `lines.sh`: per contender, the cache lines of shared memory
each member touches per episode (loads, stores, read-modify-writes), and which of them another
member writes in the same episode (each such line costs at least one transfer per episode).

Usage: lines.py DIR MEMBERS EPISODES   (DIR holds info.M and trace.M for every member M)
"""

import collections
import os
import re
import sys

LINE = 64
# A line touched less often than this per episode is bookkeeping off the critical path (a
# switch step every QUIET_STEP_NS), not part of the episode's budget.
EVERY_EPISODE = 0.5
# Writes per episode from which a member counts as a writer of a line.
WRITES_OFTEN = 0.1


def parse_info(path):
    maps, marks, labels, words = [], {}, collections.defaultdict(set), {}
    for line in open(path, errors="replace"):
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "MAP":
            lo, hi = (int(x, 16) for x in parts[1].split("-"))
            offset = int(parts[3], 16)
            maps.append((lo, hi, offset, os.path.basename(parts[-1])))
        elif parts[0] == "MARK":
            name, begin, end = parts[1], int(parts[2], 16), int(parts[3], 16)
            marks[begin] = (name, True)
            marks[end] = (name, False)
        elif parts[0] == "LABEL":
            offset = int(parts[2])
            labels[(parts[1], offset // LINE)].add(parts[3])
            words[parts[3]] = (parts[1], offset)
    return maps, marks, labels, words


def where(maps, addr):
    for lo, hi, offset, name in maps:
        if lo <= addr < hi:
            return name, addr - lo + offset
    return None


def main():
    directory, members, episodes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    # counts[contender][(file, line)][member] = Counter of L/S/M
    counts = collections.defaultdict(
        lambda: collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    )
    labels = {}
    # steps[contender][member]: switch steps this member ran during the contender's episodes
    # (their accesses are counted apart: a step is bookkeeping, every QUIET_STEP_NS while all
    # groups run on the fast path, and under valgrind that is every few episodes).
    steps = collections.defaultdict(collections.Counter)
    in_step_counts = collections.defaultdict(
        lambda: collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    )
    access = re.compile(r"^ ([LSM]) ([0-9A-Fa-f]+),(\d+)")
    for m in range(members):
        maps, marks, member_labels, words = parse_info(os.path.join(directory, f"info.{m}"))
        labels.update(member_labels)
        lock, step_count = words["H_LOCK"], words["H_STEPS"]
        current, stepping = None, False
        for line in open(os.path.join(directory, f"trace.{m}"), errors="replace"):
            match = access.match(line)
            if not match:
                continue
            kind, addr = match.group(1), int(match.group(2), 16)
            if addr in marks:
                name, begin = marks[addr]
                current = name if begin else None
                continue
            if current is None:
                continue
            place = where(maps, addr)
            if place is None:
                continue
            # A step: the lock taken (a read-modify-write of H_LOCK), then H_STEPS counted;
            # it ends with the lock's release (the next read-modify-write of H_LOCK).
            if place == step_count and kind == "M":
                stepping = True
                steps[current][m] += 1
            elif place == lock and kind == "M" and stepping:
                stepping = False
                in_step_counts[current][(place[0], place[1] // LINE)][m][kind] += 1
                continue
            line = (place[0], place[1] // LINE)
            (in_step_counts if stepping else counts)[current][line][m][kind] += 1
    for contender, lines in counts.items():
        print(f"\n{contender}: shared cache lines per episode ({episodes} episodes, {members} members), outside switch steps")
        header = "".join(f"   m{m} L/S/M per ep" for m in range(members))
        print(f"{'file':<14}{'line':>7}  {header}   written by another  label")
        budget = collections.Counter()
        contended = 0
        for (name, line), by_member in sorted(lines.items()):
            rate = {m: {k: c[k] / episodes for k in "LSM"} for m, c in by_member.items()}
            touched = {m for m, r in rate.items() if sum(r.values()) >= EVERY_EPISODE}
            # A writer writes the line in a good share of the episodes, not necessarily every
            # one: the owner's stores into a flag alternate between the members (and the
            # steps take the rest), so each writes it about every other episode.
            writers = {m for m, r in rate.items() if r["S"] + r["M"] >= WRITES_OFTEN}
            if not touched and max(sum(r.values()) for r in rate.values()) < 0.01:
                continue
            for m in touched:
                budget[m] += 1
            shared = any(writers - {m} for m in touched)
            contended += shared
            cells = "".join(
                "   {:>5.2f}/{:>4.2f}/{:>4.2f}     ".format(*(rate.get(m, {}).get(k, 0) for k in "LSM"))
                for m in range(members)
            )
            label = ",".join(sorted(labels.get((name, line), ())))
            print(f"{name:<14}{line * LINE:>#7x}  {cells}   {'yes' if shared else '-':<18}  {label}")
        per = ", ".join(f"m{m} {budget[m]}" for m in range(members))
        print(f"lines touched every episode: {per}; of them written by another member: {contended}")
        taken = steps[contender]
        if taken:
            per_step = collections.Counter()
            for by_member in in_step_counts[contender].values():
                for m in by_member:
                    per_step[m] += 1
            print(
                "switch steps: "
                + ", ".join(f"m{m} {taken[m]} ({taken[m] / episodes:.3f} per episode)" for m in range(members))
                + "; distinct lines touched inside them: "
                + ", ".join(f"m{m} {per_step[m]}" for m in range(members))
            )


if __name__ == "__main__":
    main()
