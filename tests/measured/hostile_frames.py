#!/usr/bin/env python3
"""Writes a memory snapshot whose frame strings hold what text from outside
can hold, and prints the sites a reader should show for it.

    hostile_frames.py OUT.pickle [--protocol P]

The snapshot has the schema torch.cuda.memory._snapshot() returns, pickled
with CPython's pickle as torch.cuda.memory._dump_snapshot() does: one
segment, and one allocation live at the end for each hostile frame (a
larger one for each than the one before, so that all are among the largest
at the peak). Each frame's filename or name holds bytes that are not UTF-8
(Latin-1, encoded surrogates, overlong forms, a sequence cut short, a code
point above U+10FFFF), C0 and C1 controls, DEL, bidi overrides and
isolates, or a newline. Python writes a str's UTF-8 bytes into the pickle;
the bytes that no str encodes to are written over placeholders of the same
length after pickling.

Prints one JSON object: {"sites": [the "basename:line:name" text of each
frame as bytes.decode("utf-8", "replace") reads it, in allocation order]}.
"""
import argparse
import json
import pickle

# (filename, name) as raw bytes.
HOSTILE = [
    (b"/work/caf\xe9.py", b"latin1_file"),
    (b"/work/model.py", b"fn_\xed\xa0\x80_surrogate"),
    (b"/work/model.py", b"fn_\xc0\xaf_\xe0\x80\xaf_\xf0\x80\x80\xaf_overlong"),
    (b"/work/model.py", b"fn_cut_\xe2\x82"),
    (b"/work/model.py", b"fn_\xf4\x90\x80\x80_\xff_above"),
    (b"/work/\xe2\x80\xaeyp.evil", b"bidi_\xe2\x81\xa6isolate\xe2\x81\xa9"),
    (b"/work/model.py", b"fn_\x1b[31mred\x1b[0m_\x7f"),
    (b"/work/model.py", b"fn_\xc2\x85_c1_\x85_raw"),
    (b"/work/model.py", b"fn_line\nbreak\rreturn"),
]
SEGMENT = 64 * 1024 * 1024
BASE = 0x7F0000000000


def placeholder(i, raw):
    """An ASCII stand-in as long as raw, unique to i."""
    tag = "@%d@" % i
    if len(raw) < len(tag):
        raise ValueError("hostile string too short: %r" % raw)
    return tag + "~" * (len(raw) - len(tag))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--protocol", type=int, default=None)
    args = ap.parse_args()
    raws, frames, trace, blocks = [], [], [], []
    addr, time = BASE, 1000
    for k, (filename, name) in enumerate(HOSTILE):
        fn = placeholder(len(raws), filename)
        raws.append(filename)
        nm = placeholder(len(raws), name)
        raws.append(name)
        frame = {"filename": fn, "line": 10 + k, "name": nm}
        size = (k + 1) * 1024 * 1024
        frames.append([frame])
        time += 5
        trace.append({"action": "alloc", "addr": addr, "size": size, "stream": 0,
                      "time_us": time, "frames": [frame]})
        blocks.append({"address": addr, "size": size, "requested_size": size,
                       "state": "active_allocated", "frames": [frame]})
        addr += size
    total = addr - BASE
    blocks.append({"address": addr, "size": SEGMENT - total, "requested_size": 0,
                   "state": "inactive", "frames": []})
    trace.insert(0, {"action": "segment_alloc", "addr": BASE, "size": SEGMENT, "stream": 0,
                     "time_us": 999, "frames": []})
    snapshot = {"segments": [{"device": 0, "address": BASE, "total_size": SEGMENT,
                              "allocated_size": total, "active_size": total,
                              "requested_size": total, "stream": 0, "segment_type": "large",
                              "segment_pool_id": (0, 0), "is_expandable": False,
                              "frames": [], "blocks": blocks}],
                "device_traces": [trace]}
    data = pickle.dumps(snapshot) if args.protocol is None else \
        pickle.dumps(snapshot, protocol=args.protocol)
    for i, raw in enumerate(raws):
        ph = placeholder(i, raw).encode("ascii")
        if data.count(ph) != 1:
            raise SystemExit("placeholder %r found %d times" % (ph, data.count(ph)))
        data = data.replace(ph, raw)
    with open(args.out, "wb") as f:
        f.write(data)
    sites = []
    for k, (filename, name) in enumerate(HOSTILE):
        base = filename.rsplit(b"/", 1)[-1]
        sites.append((base + b":%d:" % (10 + k) + name).decode("utf-8", "replace"))
    print(json.dumps({"sites": sites}))


if __name__ == "__main__":
    main()
