#!/usr/bin/env python3
"""Writes hostile memory snapshots that lean on the pickle memo: a few
objects stored once and referenced again and again, so that a reader doing
its work per reference instead of per object spends time or memory far out
of proportion to the file. The file is written opcode by opcode (streamed,
so a 1 GiB file costs no memory here) in the protocol-4 form pickle.dump
writes, and padded with an unread string to exactly --size bytes.

    gen_amplified.py SHAPE OUT --size BYTES [--count N] [--frames N]

Shapes (N is --count, by default as many as fit in --size):
  shared-block   one segment whose block list holds one memoized block dict
                 N times; the block has no address (each counts at the end of
                 the one before) and its frames are one list of --frames
                 references to a frame dict in torch's own files
  shared-list    N distinct blocks at their own addresses, all with the same
                 list of --frames frames
  shared-frames  N distinct blocks, each with its own list of --frames
                 references to a pool of 200 shared frame dicts
  shared-strings N distinct blocks, each with its own list of --frames
                 distinct frame dicts that share one long file name and one
                 long function name
  trace          N distinct "alloc" trace entries at their own addresses, all
                 with the same frames list, then N frees: all N are live at
                 the peak
  trace-refs     a trace that is one memoized "alloc" entry N times
  laughs         nested lists, each level --frames references to the level
                 below (6 levels: --frames**6 leaves), as every block's
                 frames and as an unread member of the top-level dict; N
                 distinct blocks

Prints one JSON object: {"shape", "size", "count", "padding"}.
"""
import argparse
import json
import struct
import sys

A0 = 0x7F0000000000
TORCH_FILE = "/usr/lib/python3/site-packages/torch/nn/modules/" + "m" * 180 + ".py"
LONG_NAME = "forward_" + "x" * 110


class Writer:
    """Opcodes into a file, counting bytes and memo entries."""

    def __init__(self, f):
        self.f = f
        self.n = 0
        self.memo = 0
        self.parts = []

    def put(self, b):
        self.parts.append(b)
        self.n += len(b)
        if len(self.parts) >= 4096:
            self.flush()

    def flush(self):
        if self.f is not None:
            self.f.write(b"".join(self.parts))
        self.parts = []

    def memoize(self):
        self.put(b"\x94")
        self.memo += 1
        return self.memo - 1


def get(i):
    return b"h" + bytes([i]) if i < 256 else b"j" + struct.pack("<I", i)


def integer(v):
    if 0 <= v < 256:
        return b"K" + bytes([v])
    if -(1 << 31) <= v < (1 << 31):
        return b"J" + struct.pack("<i", v)
    return b"\x8a\x08" + struct.pack("<q", v)


def text(s):
    b = s.encode()
    if len(b) < 256:
        return b"\x8c" + bytes([len(b)]) + b
    return b"X" + struct.pack("<I", len(b)) + b


class Snapshot:
    """The parts every shape shares: memoized keys and values, then the
    top-level dict {"segments": [...], "device_traces": [[...]], ...}."""

    def __init__(self, w, frames):
        self.w = w
        self.frames = frames
        self.key = {}
        # The top-level dict, whose first member is an unread list holding
        # every object defined once and referenced after (pickle.dump
        # writes an object where it is first used; here that is this list).
        w.put(b"\x80\x04}")
        w.memoize()
        w.put(text("annotations"))
        self.key["annotations"] = w.memoize()
        w.put(b"]")
        w.memoize()
        w.put(b"(")
        for k in ["segments", "device_traces", "device", "address", "total_size", "blocks",
                  "size", "requested_size", "state", "frames", "filename", "line", "name",
                  "active_allocated", "action", "alloc", "free_requested", "addr", "time_us",
                  "padding", TORCH_FILE, LONG_NAME]:
            w.put(text(k))
            self.key[k] = w.memoize()
        # One frame dict in torch's own files: no user frame is ever found.
        w.put(b"}")
        self.frame = w.memoize()
        w.put(b"(" + self.kv("filename", TORCH_FILE) + get(self.key["line"]) + integer(7) +
              self.kv("name", LONG_NAME) + b"u")
        # The shared frames list.
        w.put(b"]")
        self.frames_list = w.memoize()
        self.repeat(get(self.frame), frames)

    def end_definitions(self):
        self.w.put(b"es")

    def kv(self, k, v):
        return get(self.key[k]) + get(self.key[v])

    def repeat(self, item, n, each=None, first=b""):
        """Appends n items (bytes, or each(i) when given) to the list on the
        stack, 1000 to a mark as pickle.dump batches them; `first` opens the
        first batch (an object defined where it is first used)."""
        i = 0
        while i < n or first:
            m = min(1000, n - i)
            if each is None:
                self.w.put(b"(" + first + item * m + b"e")
            else:
                self.w.put(b"(" + first + b"".join(each(i + j) for j in range(m)) + b"e")
            first = b""
            i += m

    def block(self, addr, frames_ref):
        return (b"}(" + (get(self.key["address"]) + integer(addr) if addr is not None else b"") +
                get(self.key["size"]) + integer(512) + get(self.key["requested_size"]) +
                integer(512) + self.kv("state", "active_allocated") + get(self.key["frames"]) +
                frames_ref + b"u")

    def blocks_with_own_lists(self, count, frames):
        """One segment of `count` blocks, each with a new list of `frames`
        (the frames' bytes), and an empty trace."""
        self.end_definitions()
        self.segment_open()
        self.repeat(None, count, lambda i: self.block(A0 + 512 * i, b"](" + frames + b"e"))
        self.segment_close()
        self.traces()

    def segment_open(self):
        self.w.put(get(self.key["segments"]) + b"](}(" + get(self.key["device"]) + integer(0) +
                   get(self.key["address"]) + integer(A0) + get(self.key["total_size"]) +
                   integer(1 << 40) + get(self.key["blocks"]) + b"]")

    def segment_close(self):
        self.w.put(b"ue")  # the segment's SETITEMS, the segments' APPENDS
        self.w.put(b"s")   # root["segments"]

    def no_segments(self):
        self.w.put(get(self.key["segments"]) + b"]s")

    def traces(self, body=None):
        self.w.put(get(self.key["device_traces"]) + b"]]")
        if body:
            body()
        self.w.put(b"as")

    def pad_and_stop(self, size):
        pad = size - self.w.n - 1
        if pad > 0:
            if pad < 12:
                raise SystemExit("gen_amplified: %d bytes left cannot hold a padding string" % pad)
            n = pad - 12
            self.w.put(get(self.key["padding"]) + b"\x8d" + struct.pack("<Q", n))
            self.w.flush()
            chunk = b"." * (1 << 20)
            left = n
            while left > 0:
                if self.w.f is not None:
                    self.w.f.write(chunk[:min(left, len(chunk))])
                left -= min(left, len(chunk))
            self.w.n += n
            self.w.put(b"s")
        self.w.put(b".")
        self.w.flush()
        return self.w.n, max(pad, 0)


def build(shape, f, count, frames, size):
    w = Writer(f)
    s = Snapshot(w, frames)
    shared = get(s.frames_list)

    if shape == "shared-block":
        s.end_definitions()
        s.segment_open()
        b = w.memo  # the block's memo entry: the MEMOIZE right after its '}'
        s.repeat(get(b), count - 1, first=b"}\x94" + s.block(None, shared)[1:])
        w.memo += 1
        s.segment_close()
        s.traces()
    elif shape == "shared-list":
        s.end_definitions()
        s.segment_open()
        s.repeat(None, count, lambda i: s.block(A0 + 512 * i, shared))
        s.segment_close()
        s.traces()
    elif shape == "shared-frames":
        pool = []
        for i in range(200):
            w.put(b"}")
            pool.append(w.memoize())
            w.put(b"(" + s.kv("filename", TORCH_FILE) + get(s.key["line"]) + integer(i) +
                  s.kv("name", LONG_NAME) + b"u")
        lists = b"".join(get(pool[j % 200]) for j in range(frames))
        s.blocks_with_own_lists(count, lists)
    elif shape == "shared-strings":
        def frame(j):
            return (b"}(" + s.kv("filename", TORCH_FILE) + get(s.key["line"]) + integer(j % 250) +
                    s.kv("name", LONG_NAME) + b"u")
        s.blocks_with_own_lists(count, b"".join(frame(j) for j in range(frames)))
    elif shape == "trace":
        def entry(action, i):
            return (b"}(" + s.kv("action", action) + get(s.key["addr"]) + integer(A0 + 512 * i) +
                    get(s.key["size"]) + integer(512) + get(s.key["time_us"]) + integer(i) +
                    get(s.key["frames"]) + shared + b"u")
        s.end_definitions()
        s.no_segments()
        s.traces(lambda: (s.repeat(None, count, lambda i: entry("alloc", i)),
                          s.repeat(None, count, lambda i: entry("free_requested", i))))
    elif shape == "trace-refs":
        s.end_definitions()
        s.no_segments()

        def body():
            w.put(b"}")
            e = w.memoize()
            w.put(b"(" + s.kv("action", "alloc") + get(s.key["addr"]) + integer(A0) +
                  get(s.key["size"]) + integer(512) + get(s.key["frames"]) + shared + b"u")
            w.put(b"a")
            s.repeat(get(e), count - 1)
        s.traces(body)
    elif shape == "laughs":
        below = s.frames_list
        for _ in range(5):
            w.put(b"]")
            level = w.memoize()
            s.repeat(get(below), frames)
            below = level
        top = get(below)
        s.end_definitions()
        w.put(get(s.key["annotations"]) + top + b"s")
        s.segment_open()
        s.repeat(None, count, lambda i: s.block(A0 + 512 * i, top))
        s.segment_close()
        s.traces()
    else:
        raise SystemExit("gen_amplified: unknown shape %r" % shape)
    return s.pad_and_stop(size)


SHAPES = ["shared-block", "shared-list", "shared-frames", "shared-strings", "trace",
          "trace-refs", "laughs"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("shape", choices=SHAPES)
    ap.add_argument("out")
    ap.add_argument("--size", type=int, required=True, help="the file's size in bytes")
    ap.add_argument("--count", type=int, default=None,
                    help="blocks or trace entries (default: as many as fit)")
    ap.add_argument("--frames", type=int, default=256)
    args = ap.parse_args()
    count = args.count
    if count is None:
        # Sizes without padding for 1000 and 2000 items give the cost of
        # 1000 more (with their marks and APPENDS).
        k1 = build(args.shape, None, 1000, args.frames, 0)[0]
        k2 = build(args.shape, None, 2000, args.frames, 0)[0]
        per = k2 - k1
        count = max(1, 1000 + (args.size - k1 - 64) * 1000 // per)
    with open(args.out, "wb") as f:
        size, pad = build(args.shape, f, count, args.frames, args.size)
    print(json.dumps({"shape": args.shape, "size": size, "count": count, "padding": pad}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
