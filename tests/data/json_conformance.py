#!/usr/bin/env python3
"""Checks the python column of json-conformance.json against Python's json,
read as the HuggingFace loader reads a config.json: the bytes decoded as
strict UTF-8, then json.loads. Exits 1 on any case whose outcome differs."""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "json-conformance.json"), encoding="utf-8") as f:
    cases = json.load(f)["cases"]
sys.setrecursionlimit(1000)
passed = failed = 0
for case in cases:
    raw = bytes.fromhex(case["hex"]) if "hex" in case else case["text"].encode("utf-8")
    try:
        json.loads(raw.decode("utf-8"))
        got = "accept"
    except (UnicodeDecodeError, ValueError, RecursionError):
        got = "reject"
    if got == case["python"]:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {case['name']}: Python's json gives {got}, the table says {case['python']}")
print(f"json conformance (Python): {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
