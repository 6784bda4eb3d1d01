"""The host's eye of the lifecycle stage (tests/vm/lifecycle.sh): it follows the guest's
console log and, for each line `GUEST: sample TAG GROUP`, reads from the host what the guest
cannot trust itself to see: the group's registers in the port's register window (the
ivshmem backing file, which the simulated switch steps) and the 8 bytes of guest RAM that
RELEASE_ADDR points at (the guest's RAM is a host file too). It writes one line per sample:

    sample TAG g=G seq=S control=C addr=A word=W

and `sampler: done` once the guest's log says `GUEST: done` or the log stops growing after
QEMU exits (the script kills this process then).

Usage: lifecycle_sampler.py LOG WINDOW GUEST_RAM OUT GROUP_OFFSET GROUP_STRIDE
    RELEASE_ADDR_OFFSET CONTROL_OFFSET RELEASE_SEQ_OFFSET
"""

import re
import struct
import sys
import time


def main():
    log, window, ram, out = sys.argv[1:5]
    base, stride, addr_off, control_off, seq_off = (int(v, 0) for v in sys.argv[5:10])
    pattern = re.compile(r"GUEST: sample (\S+) (\d+)")
    seen = 0
    with open(out, "w", buffering=1) as answers:
        while True:
            try:
                with open(log, "rb") as f:
                    f.seek(seen)
                    chunk = f.read()
            except FileNotFoundError:
                chunk = b""
            # Whole lines only: a line the guest is still writing is read next time.
            end = chunk.rfind(b"\n") + 1
            seen += end
            for line in chunk[:end].decode("utf-8", "replace").splitlines():
                m = pattern.search(line)
                if m:
                    tag, group = m.group(1), int(m.group(2))
                    with open(window, "rb") as w:
                        regs = w.read(base + (group + 1) * stride)
                    g = base + group * stride

                    def q(off):
                        return struct.unpack_from("<Q", regs, g + off)[0]

                    addr, control, seq = q(addr_off), q(control_off), q(seq_off)
                    word = "none"
                    if addr:
                        with open(ram, "rb") as r:
                            r.seek(addr)
                            data = r.read(8)
                        if len(data) == 8:
                            word = str(struct.unpack("<Q", data)[0])
                    answers.write(
                        f"sample {tag} g={group} seq={seq} control={control:#x} addr={addr:#x} word={word}\n"
                    )
                if "GUEST: done" in line:
                    answers.write("sampler: done\n")
                    return
            time.sleep(0.02)


if __name__ == "__main__":
    main()
