"""Build codetok/data/identifier_words.txt, the word list of the statistical splitter.

One command fetches what is missing and rebuilds the table::

    python corpora/build_identifier_words.py [--corpus build/identifier-corpus] [-o OUT]

The counts come from three sources:

* **code**: the parts of identifiers that have explicit boundaries (``get_user_name``,
  ``userName``), counted once per occurrence, from the packages of :data:`TABLE` (the
  Python standard library of the running interpreter, and Java, C# and JavaScript
  packages fetched through the registries with ``corpora/fetch_code.py``'s helpers into
  ``--corpus``);
* **comments**: the lowercase words of their comments and docstrings, at weight 0.3 (only
  words of 3+ letters, or already seen in identifiers);
* **English**: the SCOWL word lists of the Debian packages ``wamerican-small`` (+20 per
  word) and ``wamerican`` (+5 per word), downloaded with ``apt-get download`` into a
  temporary folder at build time only.

Fused spellings whose pieces are each at least 6 times as frequent (``username`` next to
``user`` and ``name``) are then dropped, so they split like their camelCase forms; words of
``wamerican-small`` (``maybe``, ``without``) are kept whatever their pieces.

The packages of :data:`HELD_OUT` are fetched too but give nothing to the table:
``benchmarks/identifier_eval.py`` measures the splitter on them. Every package is under a
permissive license (see ``corpora/PROVENANCE.md``); only word counts are kept, and the
output's header carries the word lists' copyright file (SCOWL's notices), as they ask.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import sysconfig
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: packages whose code builds the table, per language ("stdlib" is the running Python's)
TABLE: dict[str, list[str]] = {
    "python": ["stdlib"],
    "java": ["guava-libraries", "jackson-databind", "jackson-core"],
    "csharp": ["newtonsoft-json", "pythonnet", "z3-solver"],
    "javascript": [
        "node-commander", "node-semver", "node-yargs", "node-debug", "node-esprima",
        "node-uglify-js", "node-moment", "node-terser", "node-express", "node-qs", "node-glob",
        "node-chalk", "node-minimist",
    ],
}  # fmt: skip
#: packages kept out of the table, for evaluation (tests/data/code/camelcase_identifiers.txt
#: comes from node-lodash, node-acorn and libjs-jquery-ui)
HELD_OUT: dict[str, list[str]] = {
    "java": ["commons-io", "libcommons-lang3-java", "jsoup"],
    "csharp": ["nunit", "clr-loader"],
    "javascript": [
        "node-lodash", "node-acorn", "libjs-jquery-ui", "node-underscore", "libjs-jquery"
    ],
}  # fmt: skip
#: Debian source packages of Java and C# code, with the license of the upstream code
DEBIAN_SOURCES: dict[str, tuple[str, str]] = {
    "guava-libraries": ("java", "Apache-2.0"),
    "jackson-databind": ("java", "Apache-2.0"),
    "jackson-core": ("java", "Apache-2.0"),
    "commons-io": ("java", "Apache-2.0"),
    "libcommons-lang3-java": ("java", "Apache-2.0"),
    "jsoup": ("java", "MIT"),
    "newtonsoft-json": ("csharp", "MIT"),
    "nunit": ("csharp", "NUnit license (zlib-style)"),
}
SUFFIXES = {
    "python": (".py",),
    "java": (".java",),
    "csharp": (".cs",),
    "javascript": (".js",),
}
#: (Debian package, file under /usr/share/dict, pseudo-count per word)
ENGLISH = [("wamerican-small", "american-english-small", 20), ("wamerican", "american-english", 5)]

PROSE_WEIGHT = 0.3
DECOMPOUND_RATIO = 6.0
PACKAGE_MB = 64  # per package: in practice every file
_WORD = re.compile(r"[A-Za-z]+")


def fetch_missing(corpus: Path) -> None:
    """Fetch the packages of TABLE and HELD_OUT that are not under ``corpus`` yet."""
    sys.path.insert(0, str(ROOT / "corpora"))
    import fetch_code as fc

    manifest_path = corpus / "MANIFEST.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else []
    wanted = [(lang, p) for d in (TABLE, HELD_OUT) for lang, ps in d.items() for p in ps]
    missing = [
        (lang, p) for lang, p in wanted if p != "stdlib" and not (corpus / lang / p).is_dir()
    ]
    if not missing:
        return
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        for lang, package in missing:
            if (corpus / lang / package).is_dir():  # fetched along with another one
                continue
            print(f"fetching {lang} {package}", file=sys.stderr)
            budget = fc.Budget(PACKAGE_MB * fc.MB)
            if package in DEBIAN_SOURCES:
                _, lic = DEBIAN_SOURCES[package]
                entries = fc.fetch_debian_sources(
                    corpus, budget, tmp, lang, [(package, lic)], SUFFIXES[lang][0]
                )
            elif lang == "csharp":  # the PyPI sdists (pythonnet, z3-solver, clr-loader)
                entries = fc.fetch_csharp(corpus, budget, tmp)
            else:
                entries = fc.fetch_javascript(corpus, budget, tmp, [package])
            done = {(e["language"], e["package"]) for e in entries}
            manifest = [e for e in manifest if (e["language"], e["package"]) not in done]
            manifest += entries
    corpus.mkdir(parents=True, exist_ok=True)
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")


def source_files(root: Path, suffixes: tuple[str, ...]) -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in ("site-packages", "__pycache__"))
        out += [Path(dirpath) / n for n in sorted(filenames) if n.endswith(suffixes)]
    return out


def collect(files: list[Path]) -> tuple[Counter[str], Counter[str]]:
    """Identifier occurrences and lowercase comment/docstring words of ``files``."""
    from codetok.code import LexemeKind, lex

    identifiers: Counter[str] = Counter()
    prose: Counter[str] = Counter()
    for path in files:
        try:
            lx = lex(path.read_bytes(), path=path)
        except Exception as e:  # a file we cannot read is skipped, and said so
            print(f"skip {path}: {e}", file=sys.stderr)
            continue
        for j in lx.indices(LexemeKind.IDENTIFIER).tolist():
            identifiers[lx.text(j)] += 1
        for j in lx.indices(LexemeKind.COMMENT, LexemeKind.DOCSTRING).tolist():
            for w in _WORD.findall(lx.text(j)):
                if w.islower() or (w[0].isupper() and w[1:].islower()):
                    prose[w.lower()] += 1
    return identifiers, prose


def english_words() -> tuple[list[tuple[str, str, dict[str, int]]], str]:
    """Per word list: (package, version, word -> pseudo-count); and its copyright file."""
    sys.path.insert(0, str(ROOT / "corpora"))
    import fetch_code as fc

    lists = []
    notice = ""
    with tempfile.TemporaryDirectory() as tmpdir:
        for package, name, weight in ENGLISH:
            root, version = fc.deb_fetch(package, Path(tmpdir))
            text = (root / "usr" / "share" / "dict" / name).read_text(encoding="utf-8")
            words = {w: weight for w in text.split() if w.isascii() and w.isalpha() and w.islower()}
            lists.append((package, version, words))
            if not notice:
                notice = (root / "usr" / "share" / "doc" / package / "copyright").read_text(
                    encoding="utf-8"
                )
    return lists, notice


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "-o", "--output", type=Path, default=ROOT / "codetok" / "data" / "identifier_words.txt"
    )
    parser.add_argument("--corpus", type=Path, default=ROOT / "build" / "identifier-corpus")
    args = parser.parse_args(argv)
    from codetok.code.routing.identifiers import learn_word_counts
    from codetok.code.routing.segmenter import WordSegmenter

    fetch_missing(args.corpus)
    identifiers: Counter[str] = Counter()
    prose: Counter[str] = Counter()
    sources = []
    for lang, packages in TABLE.items():
        for package in packages:
            if package == "stdlib":
                folder = Path(sysconfig.get_paths()["stdlib"])
            else:
                folder = args.corpus / lang / package
            files = source_files(folder, SUFFIXES[lang])
            ids, words = collect(files)
            identifiers.update(ids)
            prose.update(words)
            sources.append(f"{package} ({len(files)} files)")
            print(f"{lang} {package}: {len(files)} files", file=sys.stderr)
    counts = learn_word_counts(identifiers.elements())
    for w, c in prose.items():
        if len(w) >= 3 or w in counts:
            counts[w] += max(1, int(c * PROSE_WEIGHT))
    lists, notice = english_words()
    for _, _, words in lists:
        for w, c in words.items():
            counts[w] += c
    # fused spellings such as "username" go when their pieces are far more frequent
    kept = WordSegmenter(counts).decompound(ratio=DECOMPOUND_RATIO).counts
    for w in lists[0][2]:  # common English words stay whatever their pieces
        kept.setdefault(w, counts[w])
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    english = ", ".join(f"{p} {v} (+{ENGLISH[i][2]} per word)" for i, (p, v, _) in enumerate(lists))
    header = [
        *_wrap(
            "codetok identifier word frequencies (word<TAB>count), built by "
            "corpora/build_identifier_words.py from the identifier parts (and comment words "
            f"at weight {PROSE_WEIGHT}) of the Python {sys.version.split()[0]} standard "
            f"library and {', '.join(sources[1:])}; plus the English words of the Debian "
            f"packages {english}. Held out (nothing taken): "
            + ", ".join(p for ps in HELD_OUT.values() for p in ps)
            + ". The English word lists are SCOWL, whose copyright file follows."
        ),
        "",
        *notice.splitlines(),
    ]
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        for line in header:
            f.write(f"# {line.strip()}".rstrip() + "\n")
        for w, c in sorted(kept.items(), key=lambda kv: (-kv[1], kv[0])):
            f.write(f"{w}\t{c}\n")
    print(f"wrote {len(kept)} words to {out} ({out.stat().st_size} bytes)", file=sys.stderr)
    manifest = args.corpus / "MANIFEST.json"
    print("\n| language | package | version | license | role |")
    print("| --- | --- | --- | --- | --- |")
    entries = json.loads(manifest.read_text()) if manifest.exists() else []
    for e in entries:
        role = "table" if e["package"] in TABLE.get(e["language"], ()) else "held out"
        if e["package"] in HELD_OUT.get(e["language"], ()) or role == "table":
            print(
                f"| {e['language']} | {e['package']} | {e['version']} | {e['license']} | {role} |"
            )
    return 0


def _wrap(text: str, width: int = 88) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + [line] if line else lines


if __name__ == "__main__":
    raise SystemExit(main())
