"""Assemble real, third-party source code for tests, benchmarks and training.

Everything comes through the package registries, so the corpus can be rebuilt on any
machine with PyPI and Debian access (``apt-get download`` needs ``apt-get update`` first):

* **python**: the standard library of the running interpreter (PSF License).
* **java**: the upstream sources of the Debian source packages ``guava-libraries``,
  ``jackson-databind``, ``jackson-core`` and ``commons-io`` (all Apache-2.0); with
  ``--openjdk``, first ``src.zip`` of ``openjdk-17-source`` (GPL-2.0 with Classpath
  exception, so not used for the shipped default vocabulary).
* **csharp**: the ``pythonnet``, ``z3-solver`` and ``clr-loader`` sdists from PyPI (MIT),
  fetched with ``pip download``; then the upstream sources of the Debian source packages
  ``newtonsoft-json`` (MIT) and ``nunit`` (the NUnit license, zlib-style).

Debian source packages are fetched with ``apt-get source --download-only`` through a
private apt configuration under the temporary folder (a ``deb-src`` entry), so the
machine's own apt setup is left alone.
* **javascript**: unminified ``.js`` files of Debian ``node-*`` / ``libjs-*`` packages
  (licenses read from each package's ``debian/copyright``).

Files are copied to ``OUT/<language>/<package>/...``; ``OUT/MANIFEST.json`` records, per
package, the language, version, license, origin, file count and bytes.

Usage::

    python corpora/fetch_code.py OUT [--languages python java csharp javascript]
                                     [--max-mb 8] [--js-package NAME ...] [--openjdk]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile
from pathlib import Path

JS_PACKAGES = [
    "node-lodash",
    "node-acorn",
    "libjs-jquery-ui",
    "node-underscore",
    "node-async",
    "node-commander",
    "node-semver",
    "node-yargs",
    "node-debug",
    "libjs-jquery",
    "node-esprima",
    "node-uglify-js",
    "node-moment",
    "node-terser",
    "node-rollup",
    "node-eslint",
]
JAVA_MODULES = [
    "java.base",
    "java.desktop",
    "java.xml",
    "java.net.http",
    "java.sql",
    "jdk.compiler",
]
MB = 1 << 20


class Budget:
    """Stops copying once a language has ``limit`` bytes."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    def full(self) -> bool:
        return self.used >= self.limit


def copy_file(src: Path, dst: Path, budget: Budget) -> int:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)
    size = dst.stat().st_size
    budget.used += size
    return size


def run(cmd: list[str], cwd: Path | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr.strip()[-500:]}")
    return done.stdout


def deb_fetch(package: str, tmp: Path) -> tuple[Path, str]:
    """Download and unpack one Debian binary package; return (root, version)."""
    run(["apt-get", "download", package], cwd=tmp)
    debs = sorted(tmp.glob(f"{package}_*.deb"))
    if not debs:
        raise RuntimeError(f"apt-get download {package} gave no .deb")
    root = tmp / f"{package}-root"
    run(["dpkg-deb", "-x", str(debs[-1]), str(root)])
    version = run(["dpkg-deb", "-f", str(debs[-1]), "Version"]).strip()
    return root, version


def deb_license(root: Path, package: str) -> str:
    """The license of the ``Files: *`` paragraph of the package's debian/copyright."""
    path = root / "usr" / "share" / "doc" / package / "copyright"
    if not path.exists():
        return "see the Debian package"
    text = path.read_text(encoding="utf-8", errors="replace")
    for para in re.split(r"\n\s*\n", text):
        if re.search(r"^Files:\s*\*\s*$", para, re.MULTILINE):
            m = re.search(r"^License:\s*(.+)$", para, re.MULTILINE)
            if m:
                return m.group(1).strip()
    m = re.search(r"^License:\s*(.+)$", text, re.MULTILINE)
    return m.group(1).strip() if m else "see debian/copyright"


def fetch_python(out: Path, budget: Budget) -> list[dict]:
    root = Path(sysconfig.get_paths()["stdlib"])
    files = total = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in ("site-packages", "__pycache__"))
        for name in sorted(filenames):
            if not name.endswith(".py") or budget.full():
                continue
            src = Path(dirpath) / name
            total += copy_file(src, out / "python" / "stdlib" / src.relative_to(root), budget)
            files += 1
    version = sys.version.split()[0]
    return [_entry("python", "cpython-stdlib", version, "PSF-2.0", str(root), files, total)]


def fetch_java(out: Path, budget: Budget, tmp: Path) -> list[dict]:
    root, version = deb_fetch("openjdk-17-source", tmp)
    zips = list(root.rglob("src.zip"))
    if not zips:
        raise RuntimeError("openjdk-17-source has no src.zip")
    files = total = 0
    with zipfile.ZipFile(zips[0]) as z:
        names = sorted(n for n in z.namelist() if n.endswith(".java"))
        for module in JAVA_MODULES:
            for name in names:
                if not name.startswith(module + "/") or budget.full():
                    continue
                dst = out / "java" / "openjdk-17" / name
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_bytes(z.read(name))
                budget.used += dst.stat().st_size
                total += dst.stat().st_size
                files += 1
    lic = "GPL-2.0-only WITH Classpath-exception-2.0"
    return [_entry("java", "openjdk-17-source", version, lic, "Debian", files, total)]


#: PyPI sdists that ship C# sources, with their licenses (all MIT)
CSHARP_SDISTS = [("pythonnet", "MIT"), ("z3-solver", "MIT"), ("clr-loader", "MIT")]


def fetch_csharp(out: Path, budget: Budget, tmp: Path) -> list[dict]:
    entries = []
    for package, lic in CSHARP_SDISTS:
        if budget.full():
            break
        dest = tmp / package
        run(
            [
                sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                package, "-d", str(dest),
            ]
        )  # fmt: skip
        stem = package.replace("-", "_")
        sdists = sorted(dest.glob("*.tar.gz"))
        if not sdists:
            raise RuntimeError(f"pip download {package} gave no sdist")
        name = sdists[-1].name
        version = name[len(stem) + 1 : -len(".tar.gz")] if name.startswith(stem) else name
        files = total = 0
        with tarfile.open(sdists[-1]) as tar:
            for member in sorted(tar.getmembers(), key=lambda m: m.name):
                if not member.isfile() or not member.name.endswith(".cs") or budget.full():
                    continue
                data = tar.extractfile(member)
                if data is None:
                    continue
                dst = out / "csharp" / package / member.name.split("/", 1)[-1]
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_bytes(data.read())
                budget.used += dst.stat().st_size
                total += dst.stat().st_size
                files += 1
        entries.append(_entry("csharp", package, version, lic, "PyPI sdist", files, total))
    return entries


#: Debian source packages with C# sources: (package, license of the upstream code)
CSHARP_DEBIAN_SOURCES = [("newtonsoft-json", "MIT"), ("nunit", "NUnit license (zlib-style)")]
#: Debian source packages with Java sources, all Apache-2.0 (the default Java corpus)
JAVA_DEBIAN_SOURCES = [
    ("guava-libraries", "Apache-2.0"),
    ("jackson-databind", "Apache-2.0"),
    ("jackson-core", "Apache-2.0"),
    ("commons-io", "Apache-2.0"),
]

_DEB_SRC = """Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""


def _apt_source_options(tmp: Path) -> list[str]:
    """apt options for a private deb-src configuration under ``tmp`` (updated once)."""
    base = tmp / "apt-src"
    parts = base / "sources.list.d"
    opts = [
        "-o", "Dir::Etc::SourceList=/dev/null",
        "-o", f"Dir::Etc::SourceParts={parts}",
        "-o", f"Dir::State::Lists={base / 'lists'}",
        "-o", f"Dir::Cache::Archives={base / 'archives'}",
    ]  # fmt: skip
    if not parts.exists():
        parts.mkdir(parents=True)
        (base / "lists" / "partial").mkdir(parents=True)
        (base / "archives" / "partial").mkdir(parents=True)
        (parts / "debian-src.sources").write_text(_DEB_SRC, encoding="utf-8")
        run(["apt-get", *opts, "update"])
    return opts


def fetch_debian_sources(
    out: Path,
    budget: Budget,
    tmp: Path,
    language: str,
    packages: list[tuple[str, str]],
    suffix: str,
) -> list[dict]:
    """``suffix`` files from the upstream tarballs of Debian source packages."""
    entries = []
    for package, lic in packages:
        if budget.full():
            break
        dest = tmp / f"src-{package}"
        dest.mkdir(parents=True, exist_ok=True)
        try:
            run(
                ["apt-get", *_apt_source_options(tmp), "source", "--download-only", package],
                cwd=dest,
            )
        except RuntimeError as e:
            # Only the upstream tarball is needed; a missing Debian patch file is no loss.
            if not list(dest.glob(f"{package}_*.orig.tar.*")):
                raise RuntimeError(f"apt-get source {package} gave no upstream tarball: {e}") from e
        origs = sorted(dest.glob(f"{package}_*.orig.tar.*"))
        version = origs[-1].name[len(package) + 1 :].split(".orig.tar.")[0]
        files = total = 0
        with tarfile.open(origs[-1]) as tar:
            for member in sorted(tar.getmembers(), key=lambda m: m.name):
                if not member.isfile() or not member.name.endswith(suffix) or budget.full():
                    continue
                data = tar.extractfile(member)
                if data is None:
                    continue
                dst = out / language / package / member.name.split("/", 1)[-1]
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_bytes(data.read())
                budget.used += dst.stat().st_size
                total += dst.stat().st_size
                files += 1
        entries.append(
            _entry(language, package, version, lic, "Debian source package", files, total)
        )
    return entries


def _minified(path: Path) -> bool:
    if path.name.endswith((".min.js", "-min.js")):
        return True
    with open(path, "rb") as f:
        head = f.read(65536)
    lines = head.split(b"\n")
    return max((len(x) for x in lines), default=0) > 1000


def fetch_javascript(out: Path, budget: Budget, tmp: Path, packages: list[str]) -> list[dict]:
    entries = []
    for package in packages:
        if budget.full():
            break
        try:
            root, version = deb_fetch(package, tmp)
        except RuntimeError as e:
            print(f"skip {package}: {e}", file=sys.stderr)
            continue
        files = total = 0
        seen: set[str] = set()
        for src in sorted(root.rglob("*.js")):
            if src.is_symlink() or budget.full() or _minified(src):
                continue
            key = hashlib.sha256(src.read_bytes()).hexdigest()
            if key in seen:  # the same file shipped twice
                continue
            seen.add(key)
            total += copy_file(src, out / "javascript" / package / src.relative_to(root), budget)
            files += 1
        entries.append(
            _entry(
                "javascript", package, version, deb_license(root, package), "Debian", files, total
            )
        )
    return entries


def _entry(
    lang: str, package: str, version: str, lic: str, origin: str, files: int, size: int
) -> dict:
    return {
        "language": lang,
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
    parser.add_argument(
        "--languages", nargs="+", default=["python", "java", "csharp", "javascript"]
    )
    parser.add_argument("--max-mb", type=float, default=8.0, help="per language")
    parser.add_argument("--js-package", action="append", help="Debian package (repeatable)")
    parser.add_argument(
        "--openjdk",
        action="store_true",
        help="take Java from OpenJDK 17 first (GPL-2.0 with Classpath exception; not permissive)",
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    manifest: list[dict] = []
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        for lang in args.languages:
            budget = Budget(int(args.max_mb * MB))
            try:
                if lang == "python":
                    manifest += fetch_python(args.out, budget)
                elif lang == "java":
                    if args.openjdk:
                        manifest += fetch_java(args.out, budget, tmp)
                    manifest += fetch_debian_sources(
                        args.out, budget, tmp, "java", JAVA_DEBIAN_SOURCES, ".java"
                    )
                elif lang == "csharp":
                    manifest += fetch_csharp(args.out, budget, tmp)
                    manifest += fetch_debian_sources(
                        args.out, budget, tmp, "csharp", CSHARP_DEBIAN_SOURCES, ".cs"
                    )
                elif lang == "javascript":
                    manifest += fetch_javascript(
                        args.out, budget, tmp, args.js_package or JS_PACKAGES
                    )
                else:
                    print(f"unknown language {lang!r}", file=sys.stderr)
                    return 2
            except RuntimeError as e:
                print(f"{lang}: {e}", file=sys.stderr)
                continue
            print(f"{lang}: {budget.used / MB:.1f} MB", file=sys.stderr)
    (args.out / "MANIFEST.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
