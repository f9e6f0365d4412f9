"""Build a gold morph segmentation of English words from the affix rules of hunspell-en-us.

One command fetches the Debian package ``hunspell-en-us`` (SCOWL's ``en_US.dic`` and
``en_US.aff``) with ``apt-get download`` into a temporary folder and writes the gold file::

    python corpora/build_morph_gold.py [-o build/morph-gold/en_us_gold.txt]
        [--dic DIR]                       # read en_US.dic/.aff from DIR instead of fetching
        [--sample tests/data/morphemes/en_us_gold_sample.txt --sample-roots 500]

Each line of the output is ``word<TAB>morph morph ...`` (``walk ing``); ``#`` lines hold
the provenance and the package's copyright file (SCOWL's notices ask that it travels with
derived lists).

How the segmentation is derived, exactly:

* A dictionary entry ``root/FLAGS`` names affix classes; each ``SFX``/``PFX`` rule of the
  ``.aff`` file strips some letters and adds others when its condition matches the root.
  Applying a rule makes one boundary: between prefix and root, or between the (stripped)
  root and the suffix. Prefix and suffix classes that allow cross products combine
  (``un``+``happi``+``ness``).
* Where a rule rewrites the root's last letter, the boundary follows the surface form:
  ``y`` rewritten as ``i`` or ``ic`` stays in the stem (``tri es``, ``happi ness``,
  ``multiplic ation``), a dropped ``e``
  leaves the suffix whole (``mak ing``, ``creat ion``), and after a root's final ``e`` the
  suffixes of ``d``, ``r``, ``st`` and ``rs`` rules are ``ed``, ``er``, ``est``, ``ers``
  (``creat ed``, like ``creat ing``).
* Entries link up: an entry that another entry's rules generate (``abandonment``, from
  ``abandon/L``) keeps that analysis under its own affixes (``abandon ment s``). A word
  with several derivations takes the one with the most boundaries (then the first in
  sorted order).
* Roots shorter than three letters, or without a vowel, are abbreviations in this file
  (``b/NX``, ``c/CIAEFK``) and generate nothing; the words are kept, unsegmented.
* Only lowercase ASCII words are kept (no proper nouns, no ``'s`` forms). A word no rule
  builds is one morph.

So this is hunspell's analysis: inflection (``-s -ed -ing -er -est``) and the derivational
affixes the file knows (``re- in- un- de- dis- con- pro-``, ``-ion -ive -th -ly -ness
-able -ment``); a derivation it does not encode (``nation al``, ``organ iz ation``) counts
as no boundary, which lowers the precision of every segmenter measured against it alike.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "hunspell-en-us"
_WORD = re.compile(r"[a-z]+")
_VOWEL = re.compile(r"[aeiouy]")


@dataclass(frozen=True)
class Rule:
    """One ``PFX``/``SFX`` line: strip ``strip``, add ``add`` where ``condition`` matches."""

    flag: str
    prefix: bool
    cross: bool
    strip: str
    add: str
    condition: re.Pattern[str]

    def apply(self, root: str) -> tuple[str, int] | None:
        """The form this rule makes of ``root`` and its boundary, or None if it does not apply."""
        if not self.condition.search(root):
            return None
        if self.prefix:
            if self.strip and not root.startswith(self.strip):
                return None
            return self.add + root[len(self.strip) :], len(self.add)
        if self.strip and not root.endswith(self.strip):
            return None
        stem = root[: len(root) - len(self.strip)]
        cut = len(stem)
        if self.strip == "y" and self.add.startswith("ication"):
            cut += 2  # y rewritten as ic stays with the stem: multiplic|ation
        elif self.strip == "y" and self.add.startswith("i"):
            cut += 1  # y rewritten as i stays with the stem: tri|es, happi|ness
        elif not self.strip and root.endswith("e") and self.add in ("d", "r", "st", "rs"):
            cut -= 1  # the suffix is -ed/-er/-est/-ers after a final e: creat|ed
        return stem + self.add, cut


def parse_aff(text: str) -> dict[str, list[Rule]]:
    """The affix rules of an ``.aff`` file, by flag."""
    rules: dict[str, list[Rule]] = defaultdict(list)
    cross: dict[str, bool] = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) < 4 or f[0] not in ("PFX", "SFX"):
            continue
        kind, flag = f[0], f[1]
        if flag not in cross:  # the header line: flag, cross product, count
            cross[flag] = f[2] == "Y"
            continue
        strip = "" if f[2] == "0" else f[2]
        add = "" if f[3] == "0" else f[3].split("/")[0]
        cond = f[4] if len(f) > 4 else "."
        pattern = re.compile("^" + cond if kind == "PFX" else cond + "$")
        rules[flag].append(Rule(flag, kind == "PFX", cross[flag], strip, add, pattern))
    return rules


#: (root, boundaries the affixes add, where the root starts, where its stem ends)
Derivation = tuple[str, list[int], int, int]


def derivations(dic: str, rules: dict[str, list[Rule]]) -> dict[str, list[Derivation]]:
    """Surface word -> its derivations, for the forms of every lowercase entry.

    Every entry is its own derivation with no boundary (root ``""``).
    """
    out: dict[str, list[Derivation]] = defaultdict(list)
    for line in dic.splitlines()[1:]:
        word, _, flags = line.strip().partition("/")
        if not _WORD.fullmatch(word):
            continue
        out[word].append(("", [], 0, len(word)))
        if len(word) < 3 or not _VOWEL.search(word):
            continue
        sfx: list[tuple[str, int, bool]] = []
        pfx: list[tuple[str, int, bool]] = []
        for flag in flags:
            for rule in rules.get(flag, ()):
                made = rule.apply(word)
                if made is not None:
                    (pfx if rule.prefix else sfx).append((made[0], made[1], rule.cross))
        for form, cut, _ in sfx:
            out[form].append((word, [cut], 0, cut))
        for form, cut, _ in pfx:
            out[form].append((word, [cut], cut, len(form)))
        for p_form, p_cut, p_cross in pfx:
            for s_form, s_cut, s_cross in sfx:
                if p_cross and s_cross:
                    both = p_form[:p_cut] + s_form
                    out[both].append((word, [p_cut, s_cut + p_cut], p_cut, s_cut + p_cut))
    return {w: d for w, d in out.items() if _WORD.fullmatch(w)}


def analyses(derived: dict[str, list[Derivation]]) -> dict[str, list[int]]:
    """Word -> sorted boundary positions, linking entries through their own derivations."""
    memo: dict[str, list[int]] = {}

    def best(word: str) -> list[int]:
        found = memo.get(word)
        if found is not None:
            return found
        choices = []
        for root, cuts, start, stem_end in derived[word]:
            # the root's own analysis, shifted past a prefix, inside what is left of its stem
            inner = [b + start for b in best(root)] if root else []
            inner = [b for b in inner if start < b < stem_end]
            choices.append(sorted(set(inner + cuts)))
        choices.sort(key=lambda c: (-len(c), c))
        memo[word] = choices[0]
        return choices[0]

    # Shorter words first, so the recursion stays shallow (forms are longer than roots).
    for w in sorted(derived, key=len):
        best(w)
    return memo


def segment(word: str, cuts: list[int]) -> str:
    """``word`` with spaces at ``cuts``."""
    bounds = [0, *cuts, len(word)]
    return " ".join(word[a:b] for a, b in zip(bounds, bounds[1:]))


def fetch(tmp: Path) -> tuple[Path, str]:
    """Download and unpack hunspell-en-us; return its hunspell folder and version."""
    sys.path.insert(0, str(ROOT / "corpora"))
    import fetch_code as fc

    root, version = fc.deb_fetch(PACKAGE, tmp)
    return root / "usr" / "share" / "hunspell", version


def gold_lines(folder: Path) -> tuple[dict[str, str], dict[str, list[Derivation]]]:
    """Word -> segmentation for the dictionary in ``folder``, and the derivations."""
    aff = (folder / "en_US.aff").read_text(encoding="utf-8")
    dic = (folder / "en_US.dic").read_text(encoding="utf-8")
    derived = derivations(dic, parse_aff(aff))
    cuts = analyses(derived)
    return {w: segment(w, c) for w, c in sorted(cuts.items())}, derived


def families(derived: dict[str, list[Derivation]], roots: int, seed: int) -> list[str]:
    """The words of ``roots`` random entries that generate forms: the entries and every
    word some rule makes of them (a sample that keeps inflection families together)."""
    forms: dict[str, set[str]] = defaultdict(set)
    for word, ds in derived.items():
        for root, *_ in ds:
            if root:
                forms[root].add(word)
    chosen = random.Random(seed).sample(sorted(forms), min(roots, len(forms)))
    return sorted({w for r in chosen for w in (r, *forms[r]) if w in derived})


def write(path: Path, gold: dict[str, str], header: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    head = "".join(f"# {line}".rstrip() + "\n" for line in header.splitlines())
    body = "".join(f"{w}\t{s}\n" for w, s in gold.items())
    path.write_text(head + body, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "-o", "--output", type=Path, default=ROOT / "build" / "morph-gold" / "en_us_gold.txt"
    )
    parser.add_argument("--dic", type=Path, help="folder with en_US.dic and en_US.aff")
    parser.add_argument("--sample", type=Path, help="also write a sample here (families)")
    parser.add_argument("--sample-roots", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmpdir:
        if args.dic:
            folder, version = args.dic, "(local copy)"
            notice_path = folder / "copyright"
        else:
            folder, version = fetch(Path(tmpdir))
            notice_path = folder.parent / "doc" / PACKAGE / "copyright"
        gold, derived = gold_lines(folder)
        notice = notice_path.read_text(encoding="utf-8") if notice_path.exists() else ""
    split = sum(" " in s for s in gold.values())
    about = (
        f"Gold morph segmentation derived from the affix rules of the Debian package {PACKAGE} "
        f"{version}\n(en_US.dic, en_US.aff) by corpora/build_morph_gold.py; see its docstring "
        f"for the rules.\n{len(gold)} words, {split} with at least one boundary.\n\n"
        f"The package's copyright file follows.\n\n{notice}"
    )
    write(args.output, gold, about)
    print(f"wrote {args.output}: {len(gold)} words, {split} segmented", file=sys.stderr)
    if args.sample:
        sample = {w: gold[w] for w in families(derived, args.sample_roots, args.seed)}
        head = (
            f"The words of {args.sample_roots} random dictionary entries (seed {args.seed}) "
            f"and their forms, taken from:\n{about}"
        )
        write(args.sample, sample, head)
        print(f"wrote {args.sample}: {len(sample)} words", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
