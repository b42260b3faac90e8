#!/usr/bin/env python3
"""Achieved rates of one model chunk's ops on the GPU this runs on.

For the op shapes of one pipeline chunk of a model (default: the
Qwen3-30B-A3B preset, one micro-batch of 4096 tokens, cp 1), this times with
CUDA events, after warm-up, the median of repeated runs of:

- the dense projections (q/k/v, o, router, lm_head) forward, input-gradient
  (B) and weight-gradient (W) products;
- the routed experts' grouped products (gate/up and down; forward, B and W)
  at several token counts per local expert, through torch._grouped_mm where
  this torch has it and through bmm;
- causal attention through torch's scaled_dot_product_attention, forward and
  backward, with grouped K/V heads and with K/V expanded to every head, at
  several sequence lengths;
- the memory-bound work: a device copy, RMSNorm, the SwiGLU activation, a
  float32-to-bfloat16 cast, the fused AdamW update, the loss;
- FP8 (e4m3, per-tensor scales) products through torch._scaled_mm where
  available;

and a large square bf16 product as the ceiling the others are read against.
Each figure is written with its shape, FLOPs or bytes, median milliseconds,
achieved TFLOP/s or GB/s, and its fraction of the datasheet peak named in
the output. One run writes one JSON file; an op this torch cannot run is
recorded with its error instead of stopping the run.

    python3 scripts/gpu/op_rates.py --config presets/qwen3-30b-a3b.json \
        --out op-rates.json
"""
import argparse
import json
import math
import platform
import statistics
import subprocess
import sys
import time

import torch
import torch.nn.functional as F

# Datasheet peaks (dense, no sparsity) of the GPUs this may run on. Source:
# NVIDIA H100 and H200 Tensor Core GPU datasheets (SXM parts).
DATASHEET = {
    "H200": {"bf16_tflops": 989.4, "fp8_tflops": 1978.9, "hbm_gbs": 4800.0},
    "H100": {"bf16_tflops": 989.4, "fp8_tflops": 1978.9, "hbm_gbs": 3350.0},
}

DEV = "cuda"
BF16 = torch.bfloat16


def timed(fn, iters=20, warmup=5, sets=1):
    """Median milliseconds of fn(i) over iters runs, i rotating over sets."""
    for i in range(warmup):
        fn(i % sets)
    torch.cuda.synchronize()
    times = []
    for i in range(iters):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn(i % sets)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times), min(times), max(times)


class Recorder:
    def __init__(self, peak):
        self.peak = peak
        self.rows = []

    def add(self, group, name, shape, fn, flops=None, nbytes=None, iters=20, sets=1, **extra):
        row = {"group": group, "op": name, "shape": shape}
        row.update(extra)
        try:
            med, lo, hi = timed(fn, iters=iters, sets=sets)
            row.update({"ms_median": round(med, 5), "ms_min": round(lo, 5), "ms_max": round(hi, 5)})
            if flops is not None:
                tf = flops / (med * 1e-3) / 1e12
                row.update({"flops": flops, "tflops": round(tf, 2),
                            "of_peak": round(tf / self.peak[extra.get("peak_key", "bf16_tflops")], 4)})
            if nbytes is not None:
                gbs = nbytes / (med * 1e-3) / 1e9
                row.update({"bytes": nbytes, "gbs": round(gbs, 1), "of_hbm": round(gbs / self.peak["hbm_gbs"], 4)})
        except Exception as e:  # record and go on: one op must not cost the run
            row["error"] = f"{type(e).__name__}: {e}"[:400]
            torch.cuda.synchronize()
        row.pop("peak_key", None)
        self.rows.append(row)
        shown = row.get("tflops", row.get("gbs", row.get("error")))
        unit = " TFLOP/s" if "tflops" in row else (" GB/s" if "gbs" in row else "")
        print(f"{group:10s} {name:34s} {str(shape):44s} {row.get('ms_median', '-')!s:>10} ms  {shown}{unit}", flush=True)
        return row


def rand(*shape, dtype=BF16, scale=1.0):
    return (torch.randn(*shape, device=DEV, dtype=torch.float32) * scale).to(dtype)


def gemm_trio(rec, group, name, tokens, k, n, sets=3):
    """Forward x[T,k] @ w[k,n]; B: dy[T,n] @ w^T; W: x^T @ dy."""
    xs = [rand(tokens, k) for _ in range(sets)]
    dys = [rand(tokens, n) for _ in range(sets)]
    w = rand(k, n, scale=0.02)
    flops = 2 * tokens * k * n
    shape = {"tokens": tokens, "in": k, "out": n}
    rec.add(group, name + " F", shape, lambda i: xs[i] @ w, flops, sets=sets)
    rec.add(group, name + " B", shape, lambda i: dys[i] @ w.t(), flops, sets=sets)
    rec.add(group, name + " W", shape, lambda i: xs[i].t() @ dys[i], flops, sets=sets)


def experts(rec, experts_local, per_expert, hidden, inter):
    """The routed experts of one EP rank: gate/up [h, 2i] and down [i, h] per expert."""
    have_grouped = hasattr(torch, "_grouped_mm")
    for n in per_expert:
        total = experts_local * n
        for name, k, out in (("gate_up", hidden, 2 * inter), ("down", inter, hidden)):
            shape = {"experts": experts_local, "tokens_per_expert": n, "in": k, "out": out}
            flops = 2 * total * k * out
            x = rand(total, k)
            dy = rand(total, out)
            w = rand(experts_local, k, out, scale=0.02)
            xb, dyb = x.view(experts_local, n, k), dy.view(experts_local, n, out)
            rec.add("experts", f"bmm {name} F", shape, lambda i: torch.bmm(xb, w), flops)
            rec.add("experts", f"bmm {name} B", shape, lambda i: torch.bmm(dyb, w.transpose(1, 2)), flops)
            rec.add("experts", f"bmm {name} W", shape, lambda i: torch.bmm(xb.transpose(1, 2), dyb), flops)
            if have_grouped:
                offs = torch.arange(n, total + 1, n, device=DEV, dtype=torch.int32)
                wt = w.transpose(1, 2).contiguous().transpose(1, 2)  # column-major per expert
                rec.add("experts", f"grouped_mm {name} F", shape,
                        lambda i: torch._grouped_mm(x, wt, offs=offs), flops)
                wT = w.transpose(1, 2)
                rec.add("experts", f"grouped_mm {name} B", shape,
                        lambda i: torch._grouped_mm(dy, wT, offs=offs), flops)
                xt = x.t().contiguous()          # [k, total], row-major
                dyc = dy.t().contiguous().t()    # [total, out], column-major
                rec.add("experts", f"grouped_mm {name} W", shape,
                        lambda i: torch._grouped_mm(xt, dyc, offs=offs), flops)


def attention(rec, heads, kv_heads, head_dim, seqs):
    for s in seqs:
        # causal: half of the S x S score and value products
        fwd = 2 * 2 * s * s * head_dim * heads // 2
        bwd = fwd * 5 // 2
        q = rand(1, heads, s, head_dim).requires_grad_()
        k = rand(1, kv_heads, s, head_dim).requires_grad_()
        v = rand(1, kv_heads, s, head_dim).requires_grad_()
        do = rand(1, heads, s, head_dim)
        rep = heads // kv_heads
        ke = k.detach().repeat_interleave(rep, dim=1).requires_grad_()
        ve = v.detach().repeat_interleave(rep, dim=1).requires_grad_()
        shape = {"seq": s, "heads": heads, "kv_heads": kv_heads, "head_dim": head_dim, "causal": True}
        for label, kk, vv, kw in (("gqa", k, v, {"enable_gqa": True}), ("expanded", ke, ve, {})):
            def f(i, kk=kk, vv=vv, kw=kw):
                with torch.no_grad():
                    return F.scaled_dot_product_attention(q, kk, vv, is_causal=True, **kw)
            rec.add("attention", f"sdpa {label} F", shape, f, fwd)

            def fb(i, kk=kk, vv=vv, kw=kw):
                out = F.scaled_dot_product_attention(q, kk, vv, is_causal=True, **kw)
                out.backward(do)
                q.grad = None
                kk.grad = None
                vv.grad = None
            rec.add("attention", f"sdpa {label} F+B", shape, fb, fwd + bwd)


def memory_bound(rec, tokens, hidden, inter, routed_tokens, vocab):
    n = 1 << 28
    a = torch.empty(n, device=DEV, dtype=torch.float32).normal_()
    b = torch.empty_like(a)
    rec.add("memory", "copy fp32", {"elements": n}, lambda i: b.copy_(a), nbytes=2 * 4 * n)
    h16 = torch.empty(n, device=DEV, dtype=BF16)
    rec.add("memory", "cast fp32->bf16", {"elements": n}, lambda i: h16.copy_(a), nbytes=6 * n)
    del b, h16

    x = rand(tokens, hidden)
    wn = torch.ones(hidden, device=DEV, dtype=BF16)
    rec.add("memory", "rms_norm F", {"tokens": tokens, "hidden": hidden},
            lambda i: F.rms_norm(x, (hidden,), wn, 1e-6), nbytes=2 * 2 * tokens * hidden)
    gu = rand(routed_tokens, 2 * inter)

    def swiglu(i):
        g, u = gu.chunk(2, dim=-1)
        return F.silu(g) * u
    rec.add("memory", "swiglu F", {"tokens": routed_tokens, "inter": inter}, swiglu,
            nbytes=2 * routed_tokens * 3 * inter)

    logits = rand(tokens, vocab)
    target = torch.randint(0, vocab, (tokens,), device=DEV)
    rec.add("memory", "fp32 cast + cross_entropy F", {"tokens": tokens, "vocab": vocab},
            lambda i: F.cross_entropy(logits.float(), target), nbytes=2 * tokens * vocab)
    del logits

    p = 1 << 27
    params = [torch.nn.Parameter(torch.empty(p, device=DEV, dtype=torch.float32).normal_())]
    params[0].grad = torch.empty_like(params[0]).normal_()
    for fused in (True, False):
        try:
            opt = torch.optim.AdamW(params, lr=1e-4, fused=fused, foreach=None if fused else True)
        except Exception as e:
            rec.rows.append({"group": "optimizer", "op": f"adamw fused={fused}", "error": str(e)[:400]})
            continue
        # fp32 param, grad, exp_avg, exp_avg_sq read; param and both states written
        rec.add("optimizer", f"adamw step fused={fused}", {"parameters": p}, lambda i: opt.step(),
                nbytes=7 * 4 * p, iters=10)
        del opt


def fp8(rec, shapes):
    if not hasattr(torch, "_scaled_mm") or not hasattr(torch, "float8_e4m3fn"):
        rec.rows.append({"group": "fp8", "op": "scaled_mm", "error": "torch has no _scaled_mm"})
        return
    one = torch.tensor(1.0, device=DEV)
    for name, t, k, n in shapes:
        a = rand(t, k).to(torch.float8_e4m3fn)
        b = rand(n, k, scale=0.02).to(torch.float8_e4m3fn).t()  # column-major second operand
        rec.add("fp8", f"scaled_mm {name}", {"tokens": t, "in": k, "out": n},
                lambda i: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=BF16),
                2 * t * k * n, peak_key="fp8_tflops")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default="presets/qwen3-30b-a3b.json")
    ap.add_argument("--tokens", type=int, default=4096, help="one micro-batch's tokens on the rank (seq / cp)")
    ap.add_argument("--ep", type=int, default=8)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    with open(args.config, encoding="utf-8") as f:
        cfg = json.load(f)
    h = cfg["hidden_size"]
    nq, nkv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    hd = cfg.get("head_dim") or h // nq
    inter = cfg["moe_intermediate_size"]
    e = cfg["num_experts"]
    topk = cfg["num_experts_per_tok"]
    vocab = cfg["vocab_size"]
    t = args.tokens

    name = torch.cuda.get_device_name(0)
    kind = next((k for k in DATASHEET if k in name), "H100")
    peak = DATASHEET[kind]
    rec = Recorder(peak)
    began = time.time()

    # the ceiling: a large square bf16 product
    big = 8192
    xa, xb = rand(big, big), rand(big, big)
    rec.add("ceiling", "bf16 matmul 8192^3", {"m": big, "n": big, "k": big}, lambda i: xa @ xb, 2 * big ** 3)
    del xa, xb

    gemm_trio(rec, "dense", "qkv_proj", t, h, (nq + 2 * nkv) * hd)
    gemm_trio(rec, "dense", "o_proj", t, nq * hd, h)
    gemm_trio(rec, "dense", "router", t, h, e)
    gemm_trio(rec, "dense", "lm_head", t, h, vocab, sets=1)

    local = e // args.ep
    # uniform routing: a rank receives t*topk token-expert pairs, spread over its e/ep experts
    uniform = t * topk * args.ep // e
    per_expert = sorted({max(64, uniform // 4), uniform // 2, uniform, int(uniform * 1.18) // 16 * 16, uniform * 2})
    experts(rec, local, per_expert, h, inter)

    attention(rec, nq, nkv, hd, [t, 2 * t, 4 * t])
    memory_bound(rec, t, h, inter, local * uniform, vocab)
    fp8(rec, [("qkv_proj", t, h, (nq + 2 * nkv) * hd), ("o_proj", t, nq * hd, h),
              ("expert gate_up (all local tokens)", local * uniform, h, 2 * inter)])

    smi = ""
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.sm,clocks.max.sm,"
                              "clocks.mem,power.limit,temperature.gpu", "--format=csv"],
                             capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception as ex:
        smi = f"nvidia-smi: {ex}"
    out = {
        "what": "achieved rates of one chunk's ops, CUDA-event medians after warm-up",
        "model_config": args.config,
        "tokens_per_microbatch": t,
        "ep": args.ep,
        "local_experts": local,
        "uniform_tokens_per_expert": uniform,
        "device": name,
        "datasheet": dict(peak, source=f"NVIDIA {kind} Tensor Core GPU datasheet (SXM, dense)"),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "python": platform.python_version(),
        "nvidia_smi": smi,
        "seconds": round(time.time() - began, 1),
        "rows": rec.rows,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    errors = sum(1 for r in rec.rows if "error" in r)
    print(f"{len(rec.rows)} rows, {errors} with errors, {out['seconds']} s; written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
