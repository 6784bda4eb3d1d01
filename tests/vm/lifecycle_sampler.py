"""The host's eye of the lifecycle stage (tests/vm/lifecycle.sh): it follows the guest's
console log and, for each line `GUEST: sample TAG GROUP`, reads from the host what the guest
cannot trust itself to see: the group's registers in the port's register window (the
ivshmem backing file, which the simulated switch steps) and the 8 bytes of guest RAM that
RELEASE_ADDR points at (the guest's RAM is a host file too). It writes one line per sample:

    sample TAG g=G seq=S control=C addr=A word=W

and `sampler: done` once the guest's log says `GUEST: done` or the log stops growing after
QEMU exits (the script kills this process then).

For each line `GUEST: inject aer DEVICE ERROR` it injects a PCIe AER error through QEMU's HMP monitor
(the unix socket MONITOR): `pcie_aer_inject_error DEVICE ERROR`, and writes

    aer DEVICE ERROR: <the monitor's answer: `OK id: DEVICE …` when it took the command>

Usage: lifecycle_sampler.py LOG WINDOW GUEST_RAM OUT GROUP_OFFSET GROUP_STRIDE
    RELEASE_ADDR_OFFSET CONTROL_OFFSET RELEASE_SEQ_OFFSET MONITOR
"""

import re
import socket
import struct
import sys
import time


def hmp(path, command):
    """Runs one HMP command on the monitor at `path`; its output (the echo and prompts cut)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(path)

        def until_prompt():
            data = b""
            while not data.endswith(b"(qemu) "):
                more = s.recv(4096)
                if not more:
                    break
                data += more
            return data.decode("utf-8", "replace")

        until_prompt()  # the banner
        s.sendall(command.encode() + b"\n")
        text = until_prompt()
    lines = [l.strip() for l in text.replace("\r", "").split("\n")]
    return " | ".join(l for l in lines if l and l != "(qemu)" and command not in l)


def main():
    log, window, ram, out = sys.argv[1:5]
    base, stride, addr_off, control_off, seq_off = (int(v, 0) for v in sys.argv[5:10])
    monitor = sys.argv[10]
    pattern = re.compile(r"GUEST: sample (\S+) (\d+)")
    aer = re.compile(r"GUEST: inject aer (\S+) (\S+)")
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
                a = aer.search(line)
                if a:
                    device, error = a.group(1), a.group(2)
                    try:
                        said = hmp(monitor, f"pcie_aer_inject_error {device} {error}")
                    except OSError as e:
                        said = f"monitor: {e}"
                    answers.write(f"aer {device} {error}: {said}\n")
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
