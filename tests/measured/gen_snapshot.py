#!/usr/bin/env python3
"""Writes memory snapshots in the schema torch.cuda.memory._snapshot() returns,
pickled with CPython's pickle as torch.cuda.memory._dump_snapshot() does, from
a small simulation of the caching allocator whose allocated bytes (what
torch.cuda.max_memory_allocated() reports) are known exactly.

    gen_snapshot.py OUT_DIR [--ranks N | --rank-list R,R,...] [--events N]
                            [--frames N] [--depth N] [--seed S] [--protocol P]
                            [--unique-lists]

Writes OUT_DIR/snapshot-rankNNNNN.pickle for ranks 0..N-1 and prints one JSON
object: {"files": {name: {"peak": bytes, "top": bytes (the largest block live at the peak),
"live_at_peak": n, "start": bytes,
"end_allocated": bytes, "end_reserved": bytes, "peak_reserved": bytes,
"events": n}}}. Each run has blocks allocated before the recording (some live
to the end, some freed in the window), interleaved allocs and frees with
addresses reused, frees completed late, blocks larger than their rounded
request (live to the end, as the allocator hands out unsplit blocks),
pending frees at the end, shared frame dicts and frame lists (the memo),
segments added during the window, and an empty trace for a second device.
"""
import argparse
import json
import os
import pickle
import random

ROUND = 512
SEGMENT = 20 * 1024 * 1024


def round_block(n):
    return ROUND if n < ROUND else (n + ROUND - 1) // ROUND * ROUND


class Allocator:
    """Blocks carved from segments; allocated bytes counted as the caching
    allocator counts them (block sizes, rising at alloc, falling at
    free_requested)."""

    def __init__(self, rng, frames_pool, base, unique_lists=None):
        self.rng = rng
        self.frames_pool = frames_pool
        self.unique_lists = unique_lists   # (frame dicts, depth): a new list per entry
        self.segments = []          # [address, size, next offset]
        self.free_blocks = {}       # block size -> [addresses]
        self.live = {}              # address -> (block size, requested, frames)
        self.pending = {}           # free requested, not completed
        self.allocated = 0
        self.reserved = 0
        self.trace = []
        self.time = 1_000_000
        self.base = base
        self.recording = False
        self.peak = 0
        self.peak_top = 0
        self.peak_count = 0
        self.peak_reserved = 0

    def _segment(self, size):
        seg = max(SEGMENT, (size + SEGMENT - 1) // SEGMENT * SEGMENT)
        addr = self.base
        self.base += seg + 2 * 1024 * 1024
        self.segments.append([addr, seg, 0])
        self.reserved += seg
        self._record("segment_alloc", addr, seg, [])
        return self.segments[-1]

    def _record(self, action, addr, size, frames):
        if not self.recording:
            return
        self.time += self.rng.randint(1, 40)
        self.trace.append({"action": action, "addr": addr, "size": size, "stream": 0,
                           "time_us": self.time, "frames": frames})

    def _note(self):
        if self.recording and self.allocated > self.peak:
            self.peak = self.allocated
            self.peak_top = max((b for b, _, _ in self.live.values()), default=0)
            self.peak_count = len(self.live)
        if self.recording:
            self.peak_reserved = max(self.peak_reserved, self.reserved)

    def alloc(self, requested, extra=0):
        block = round_block(requested) + extra
        reuse = self.free_blocks.get(block)
        if reuse:
            addr = reuse.pop()
        else:
            seg = None
            for s in self.segments:
                if s[1] - s[2] >= block:
                    seg = s
                    break
            if seg is None:
                seg = self._segment(block)
            addr = seg[0] + seg[2]
            seg[2] += block
        frames = self._frames()
        self.live[addr] = (block, requested, frames)
        self.allocated += block
        self._record("alloc", addr, requested, frames)
        self._note()
        return addr

    def free(self, addr, complete=True):
        block, requested, frames = self.live.pop(addr)
        self.allocated -= block
        self._record("free_requested", addr, requested, self._frames())
        if complete:
            self._complete(addr, block, requested)
        else:
            self.pending[addr] = (block, requested)
        self._note()

    def _frames(self):
        if self.unique_lists:
            dicts, depth = self.unique_lists
            return [self.rng.choice(dicts) for _ in range(depth)]
        return self.rng.choice(self.frames_pool)

    def _complete(self, addr, block, requested):
        self._record("free_completed", addr, requested, [])
        self.free_blocks.setdefault(block, []).append(addr)

    def complete_some(self):
        for addr in list(self.pending):
            if self.rng.random() < 0.5:
                block, requested = self.pending.pop(addr)
                self._complete(addr, block, requested)

    def segments_snapshot(self, device):
        out = []
        for addr, size, _ in self.segments:
            blocks = []
            owned = []
            for a, (block, req, frames) in self.live.items():
                if addr <= a < addr + size:
                    owned.append((a, block, req, "active_allocated", frames))
            for a, (block, req) in self.pending.items():
                if addr <= a < addr + size:
                    owned.append((a, block, req, "active_pending_free", []))
            owned.sort()
            cursor = addr
            for a, block, req, state, frames in owned:
                if a > cursor:
                    blocks.append({"address": cursor, "size": a - cursor, "requested_size": 0,
                                   "state": "inactive", "frames": []})
                blocks.append({"address": a, "size": block, "requested_size": req,
                               "state": state, "frames": frames})
                cursor = a + block
            if cursor < addr + size:
                blocks.append({"address": cursor, "size": addr + size - cursor,
                               "requested_size": 0, "state": "inactive", "frames": []})
            out.append({"device": device, "address": addr, "total_size": size,
                        "allocated_size": sum(b["size"] for b in blocks
                                              if b["state"] == "active_allocated"),
                        "active_size": sum(b["size"] for b in blocks if b["state"] != "inactive"),
                        "requested_size": sum(b["requested_size"] for b in blocks),
                        "stream": 0, "segment_type": "large", "segment_pool_id": (0, 0),
                        "is_expandable": False, "frames": [], "blocks": blocks})
        return out


def frames_pool(rng, n_frames, depth):
    files = ["/usr/lib/python3/site-packages/torch/nn/modules/linear.py",
             "/usr/lib/python3/site-packages/torch/nn/functional.py",
             "/work/pithtrain/models/qwen3.py", "/work/pithtrain/layers/moe.py",
             "/work/pithtrain/dualpipe/execution.py", "/work/pithtrain/tasks/pretrain_lm.py"]
    dicts = [{"filename": rng.choice(files), "line": rng.randint(1, 3000),
              "name": "fn_%d" % i} for i in range(n_frames)]
    # Lists share the frame dicts (the memo); some lists are shared too.
    lists = [[rng.choice(dicts) for _ in range(rng.randint(1, depth))] for _ in range(64)]
    return dicts, lists + [[]]


def one_rank(rank, args):
    rng = random.Random(args.seed * 1000 + rank)
    dicts, pool = frames_pool(rng, args.frames, args.depth)
    al = Allocator(rng, pool, base=0x7F0000000000 + rank * 0x100000000,
                   unique_lists=(dicts, args.depth) if args.unique_lists else None)
    # Before the recording: parameters (live to the end) and activations
    # of an earlier step, some freed during the window.
    params = [al.alloc(rng.randint(1, 8) * 1024 * 1024 + rng.randint(0, 4000))
              for _ in range(6 + rank)]
    early = [al.alloc(rng.randint(100, 3_000_000)) for _ in range(10)]
    al.recording = True
    start = al.allocated
    al.peak = al.allocated
    al.peak_top = max(b for b, _, _ in al.live.values())
    al.peak_count = len(al.live)
    al.peak_reserved = al.reserved
    live = list(early)
    keep = []
    for i in range(args.events):
        r = rng.random()
        if r < 0.5 or not live:
            size = rng.choice([rng.randint(1, 511), rng.randint(512, 70_000),
                               rng.randint(1, 6) * 1024 * 1024 + rng.randint(-3, 3)])
            size = max(size, 1)
            live.append(al.alloc(size))
        else:
            addr = live.pop(rng.randrange(len(live)))
            al.free(addr, complete=rng.random() < 0.8)
        if i % 17 == 0:
            al.complete_some()
    # Blocks larger than their rounded request, live to the end.
    for _ in range(3):
        keep.append(al.alloc(rng.randint(2_000_000, 3_000_000), extra=ROUND * rng.randint(1, 900)))
    # One free left pending at the end.
    if live:
        al.free(live.pop(), complete=False)
    segments = al.segments_snapshot(0)
    snapshot = {"segments": segments, "device_traces": [al.trace, []],
                "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": None, "max_split_size": -1,
                                       "garbage_collection_threshold": 0.0,
                                       "expandable_segments": False,
                                       "roundup_power2_divisions": {"1": 0, "2": 0}}}
    name = "snapshot-rank%05d.pickle" % args.rank_list[rank]
    with open(os.path.join(args.out, name), "wb") as f:
        if args.protocol is None:
            pickle.dump(snapshot, f)
        else:
            pickle.dump(snapshot, f, protocol=args.protocol)
    return name, {"peak": al.peak, "top": al.peak_top, "live_at_peak": al.peak_count,
                  "end_allocated": al.allocated, "end_reserved": al.reserved,
                  "peak_reserved": al.peak_reserved, "events": len(al.trace),
                  "start": start}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--events", type=int, default=400)
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--protocol", type=int, default=None)
    ap.add_argument("--rank-list", default=None,
                    help="global ranks of the files, comma-separated (default 0..ranks-1)")
    ap.add_argument("--unique-lists", action="store_true",
                    help="a new frames list for every entry, as a real trace has")
    args = ap.parse_args()
    if args.rank_list:
        args.rank_list = [int(x) for x in args.rank_list.split(",")]
        args.ranks = len(args.rank_list)
    else:
        args.rank_list = list(range(args.ranks))
    os.makedirs(args.out, exist_ok=True)
    files = dict(one_rank(r, args) for r in range(args.ranks))
    print(json.dumps({"files": files}))


if __name__ == "__main__":
    main()
