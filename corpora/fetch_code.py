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

The languages that codetok added later (for tests and benchmarks, not the default
vocabulary) come from Debian binary packages (``apt-get download`` + ``dpkg-deb -x``) and
the upstream tarballs of Debian source packages (bookworm's, unless an entry names another
suite), in the order of ``NEW_LANGUAGES`` until the budget is full; each package's license
is read from its ``debian/copyright`` (``Files: *``) into the manifest. Where Debian has
too little of a language, a PyPI sdist that ships its sources fills up (fetched by its
pinned version from PyPI's JSON API and checked against the digest PyPI lists; its
license is the one the package declares):

* **go**: ``golang-github-spf13-cobra-dev`` (Apache-2.0), ``golang-github-gorilla-mux-dev``
  (BSD-3-Clause), ``golang-github-stretchr-testify-dev`` (MIT), then the Go 1.19 standard
  library of ``golang-1.19-src`` (BSD-3-Clause; its ``cmd`` toolchain is left out).
* **rust**: crate sources of ``librust-*-dev`` packages (serde, serde_json, anyhow, log,
  itertools, regex, regex-syntax, nom, syn, hashbrown, rand, bytes, clap, tokio; MIT or
  Apache-2.0).
* **c**: source packages ``zlib`` (Zlib), ``jansson`` (MIT), ``libyaml`` (MIT), ``lua5.4``
  (MIT), ``libuv1`` (MIT), ``sqlite3`` (public domain), ``curl`` (curl, MIT-style).
* **cpp**: source packages ``snappy``, ``leveldb``, ``googletest`` (BSD-3-Clause),
  ``fmtlib`` (MIT), ``catch2`` (BSL-1.0), ``nlohmann-json3`` (MIT), ``protobuf``
  (BSD-3-Clause); ``.cc .cpp .cxx .hpp .hh .hxx`` only (plain ``.h`` is C's).
* **typescript**: ``ts/`` of the source package ``flatbuffers`` (Apache-2.0), then ``src/``
  of ``node-typescript`` (the compiler and language service; Apache-2.0); ``.d.ts``
  declaration files are left out.
* **tsx**: ``tests/cases/`` of ``node-typescript`` (Apache-2.0), then the ``.tsx`` test
  fixtures of ``node-babel7`` (MIT), both compiler/parser test cases (small, some
  deliberately erroneous); then the React web UI (``src/airflow/ui/``) of the PyPI sdist
  ``apache-airflow-core`` 3.3.2 (Apache-2.0).
* **php**: ``composer`` and ``php-*`` packages (Symfony components, Twig, Guzzle,
  League, Monolog, Doctrine DBAL; MIT or BSD-3-Clause), from ``/usr/share/php``.
* **ruby**: ``rake``, ``ruby-thor``, ``ruby-rack``, ``ruby-i18n``, ``ruby-sinatra``,
  ``ruby-rspec-*``, ``ruby-rouge``, ``ruby-activesupport`` (MIT), then the Ruby 3.1 standard
  library of ``libruby3.1`` (Ruby license or BSD-2-Clause).
* **kotlin**: ``.kt``/``.kts`` of the source packages ``protobuf`` (BSD-3-Clause),
  ``flatbuffers`` (Apache-2.0) and ``kotlin`` 1.3.31 (Apache-2.0).
* **swift**: ``.swift`` of the source packages ``flatbuffers`` (Apache-2.0), ``opencv``
  (its Objective-C/Swift bindings; Apache-2.0) and ``mpv`` (its macOS backend;
  GPL-2+/LGPL-2.1+, not permissive); then, as bookworm has no Swift toolchain or library,
  trixie's ``swiftlang`` 6.0.3 (the Swift toolchain and its libraries, 25,505 ``.swift``
  files, taken in path order: lldb's Swift tests, SourceKit-LSP, swift-collections,
  swift-argument-parser, ...; Apache-2.0 with the Runtime Library Exception).
* **scala**: the source package ``scala`` 2.11.12 (BSD-3-Clause).
* **bash**: ``bats`` (MIT), ``shunit2`` (Apache-2.0), ``git-extras`` (MIT) and
  ``bash-completion`` (GPL-2+, not permissive); ``.sh``/``.bash`` files, files without
  a suffix that start with a ``sh``/``bash`` shebang, and bash-completion's completions.
* **lua**: ``lua-*`` packages (penlight, ldoc, busted, luassert, say, inspect, dkjson,
  argparse; MIT), ``luarocks`` (MIT), ``lmod`` (MIT), ``prosody`` (MIT) and
  ``neovim-runtime`` (Apache-2.0 and Vim license).
* **haskell**: ``.hs``/``.lhs`` of ``haskell-*`` source packages (aeson, megaparsec, lens,
  vector, attoparsec, optparse-applicative, quickcheck, unordered-containers, conduit,
  hspec-core, servant, wai, warp, http-client; BSD-3-Clause, BSD-2-Clause or MIT).
* **sql**: the regression and contrib tests of the source package ``postgresql-15``
  (PostgreSQL license).

Files above 300 kB (generated tables, amalgamations), files with NUL bytes, files already
taken for the language (same bytes) and ``testdata``, ``vendor`` and ``node_modules``
folders are skipped.

Files are copied to ``OUT/<language>/<package>/...``; ``OUT/MANIFEST.json`` records, per
package, the language, version, license, origin, file count and bytes.

Usage::

    python corpora/fetch_code.py OUT [--languages python java csharp javascript]
                                     [--max-mb 8] [--js-package NAME ...] [--openjdk]
    python corpora/fetch_code.py OUT --languages go rust c cpp typescript tsx php ruby \
        kotlin swift scala bash lua haskell sql --max-mb 10

``OUT/MANIFEST.json`` is merged: the entries of the languages fetched now replace their old
ones, the others are kept.
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
import urllib.parse
import urllib.request
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
    return _copyright_license(path.read_text(encoding="utf-8", errors="replace"))


def _copyright_license(text: str) -> str:
    """The license of the ``Files: *`` paragraph of a debian/copyright text."""
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
Suites: bookworm trixie
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
        dest = _download_source(tmp, package)
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


#: Name suffixes of each language added later; bash also takes shebang scripts
NEW_LANGUAGE_SUFFIXES = {
    "go": (".go",),
    "rust": (".rs",),
    "c": (".c", ".h"),
    "cpp": (".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"),
    "typescript": (".ts", ".mts", ".cts"),
    "tsx": (".tsx",),
    "php": (".php",),
    "ruby": (".rb",),
    "kotlin": (".kt", ".kts"),
    "swift": (".swift",),
    "scala": (".scala",),
    "bash": (".sh", ".bash"),
    "lua": (".lua",),
    "haskell": (".hs", ".lhs"),
    "sql": (".sql",),
}
#: Per language, in order until the budget is full: ``("deb", binary package)``,
#: ``("src", source package, folder of the upstream tree to take ("" for all of it)[,
#: Debian suite, bookworm unless given])`` or ``("sdist", PyPI package, version, folder)``
NEW_LANGUAGES: dict[str, list[tuple[str, ...]]] = {
    "go": [
        ("deb", "golang-github-spf13-cobra-dev"),
        ("deb", "golang-github-gorilla-mux-dev"),
        ("deb", "golang-github-stretchr-testify-dev"),
        ("deb", "golang-1.19-src"),
    ],
    "rust": [
        ("deb", f"librust-{name}-dev")
        for name in (
            "serde",
            "serde-json",
            "anyhow",
            "log",
            "itertools",
            "regex",
            "regex-syntax",
            "nom",
            "syn",
            "hashbrown",
            "rand",
            "bytes",
            "clap",
            "tokio",
        )
    ],  # fmt: skip
    "c": [
        ("src", name, "")
        for name in ("zlib", "jansson", "libyaml", "lua5.4", "libuv1", "sqlite3", "curl")
    ],
    "cpp": [
        ("src", name, "")
        for name in (
            "snappy",
            "leveldb",
            "googletest",
            "fmtlib",
            "catch2",
            "nlohmann-json3",
            "protobuf",
        )
    ],  # fmt: skip
    "typescript": [("src", "flatbuffers", "ts/"), ("src", "node-typescript", "src/")],
    "tsx": [
        ("src", "node-typescript", "tests/cases/"),
        ("src", "node-babel7", ""),
        ("sdist", "apache-airflow-core", "3.3.2", "src/airflow/ui/"),
    ],
    "php": [
        ("deb", name)
        for name in (
            "composer",
            "php-symfony-console",
            "php-symfony-http-foundation",
            "php-symfony-http-kernel",
            "php-symfony-yaml",
            "php-symfony-finder",
            "php-symfony-process",
            "php-symfony-validator",
            "php-twig",
            "php-guzzlehttp-psr7",
            "php-guzzlehttp-guzzle",
            "php-league-commonmark",
            "php-league-flysystem",
            "php-monolog",
            "php-psr-log",
            "php-nikic-fast-route",
            "php-doctrine-dbal",
        )
    ],  # fmt: skip
    "ruby": [
        ("deb", name)
        for name in (
            "rake",
            "ruby-thor",
            "ruby-rack",
            "ruby-i18n",
            "ruby-sinatra",
            "ruby-rspec-core",
            "ruby-rspec-expectations",
            "ruby-rspec-mocks",
            "ruby-rouge",
            "ruby-activesupport",
            "libruby3.1",
        )
    ],  # fmt: skip
    "kotlin": [("src", "protobuf", ""), ("src", "flatbuffers", ""), ("src", "kotlin", "")],
    "swift": [
        ("src", "flatbuffers", ""),
        ("src", "opencv", ""),
        ("src", "mpv", ""),
        ("src", "swiftlang", "", "trixie"),
    ],
    "scala": [("src", "scala", "")],
    "bash": [
        ("deb", "bats"),
        ("deb", "shunit2"),
        ("deb", "git-extras"),
        ("deb", "bash-completion"),
    ],
    "lua": [
        ("deb", name)
        for name in (
            "lua-penlight",
            "lua-ldoc",
            "lua-busted",
            "lua-luassert",
            "lua-say",
            "lua-inspect",
            "lua-dkjson",
            "lua-argparse",
            "luarocks",
            "lmod",
            "prosody",
            "neovim-runtime",
        )
    ],  # fmt: skip
    "haskell": [
        ("src", f"haskell-{name}", "")
        for name in (
            "aeson",
            "megaparsec",
            "lens",
            "vector",
            "attoparsec",
            "optparse-applicative",
            "quickcheck",
            "unordered-containers",
            "conduit",
            "hspec-core",
            "servant",
            "wai",
            "warp",
            "http-client",
        )
    ],  # fmt: skip
    "sql": [("src", "postgresql-15", "")],
}
#: Larger files are mostly generated (tables, amalgamations, bundles)
MAX_FILE_BYTES = 300_000
#: Test inputs (often invalid on purpose) and bundled copies of other projects
_SKIP_FOLDERS = {"testdata", "node_modules", "vendor"}
_SHEBANG = re.compile(rb"#!\s*(/usr)?(/local)?/bin/(env\s+)?(ba)?sh\b")


class _Taker:
    """Decides which files of one language to keep and stores them under ``out``."""

    def __init__(self, out: Path, language: str, budget: Budget) -> None:
        self.out = out
        self.language = language
        self.budget = budget
        self.suffixes = NEW_LANGUAGE_SUFFIXES[language]
        self.seen: set[str] = set()  # sha256 of the files taken, across packages

    def wants(self, path: str) -> bool:
        """Whether the file name (or, for bash, the place) fits the language."""
        parts = path.split("/")
        if _SKIP_FOLDERS.intersection(parts[:-1]):
            return False
        if self.language == "go" and "go-1.19/src/cmd" in path:
            return False  # the toolchain: the library is more varied
        if self.language == "typescript" and path.endswith(".d.ts"):
            return False
        if path.endswith(self.suffixes):
            return True
        if self.language == "bash":
            # bash-completion's completions are bash without suffix or shebang
            return "/bash-completion/completions/" in path or "." not in parts[-1]
        return False

    def take(self, data: bytes, dst: Path) -> bool:
        """Store ``data`` at ``dst`` unless it is too large, binary, a duplicate or, for
        bash, a suffix-less file without a shell shebang."""
        if self.budget.full() or len(data) > MAX_FILE_BYTES or b"\0" in data[:8192]:
            return False
        if (
            self.language == "bash"
            and not dst.name.endswith(self.suffixes)
            and not _bash_completion(dst)
            and not _SHEBANG.match(data)
        ):
            return False
        key = hashlib.sha256(data).hexdigest()
        if key in self.seen:
            return False
        self.seen.add(key)
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(data)
        self.budget.used += len(data)
        return True


def _bash_completion(path: Path) -> bool:
    """bash-completion's main script and completions: bash without a shebang."""
    parts = path.parts
    in_package = "bash-completion" in parts
    return in_package and ("completions" in parts or path.name == "bash_completion")


def fetch_deb_files(taker: _Taker, tmp: Path, package: str) -> dict:
    """The files of one language that a Debian binary package installs (not installed:
    ``dpkg-deb -x`` into ``tmp``); the license comes from its ``copyright`` file."""
    root, version = deb_fetch(package, tmp)
    files = total = 0
    for src in sorted(root.rglob("*")):
        if src.is_symlink() or not src.is_file():
            continue
        rel = src.relative_to(root)
        if not taker.wants(rel.as_posix()):
            continue
        data = src.read_bytes()
        if taker.take(data, taker.out / taker.language / package / rel):
            files += 1
            total += len(data)
    lic = deb_license(root, package)
    return _entry(taker.language, package, version, lic, "Debian binary package", files, total)


def _download_source(tmp: Path, package: str, suite: str = "bookworm") -> Path:
    """``apt-get source --download-only PACKAGE/SUITE`` into ``tmp/src-PACKAGE`` (once per
    run)."""
    dest = tmp / f"src-{package}"
    if list(dest.glob(f"{package}_*.dsc")):
        return dest
    dest.mkdir(parents=True, exist_ok=True)
    try:
        options = _apt_source_options(tmp)
        run(["apt-get", *options, "source", "--download-only", f"{package}/{suite}"], cwd=dest)
    except RuntimeError as e:
        # Only the upstream tarball is needed; a missing Debian patch file is no loss.
        if not list(dest.glob(f"{package}_*.orig.tar.*")):
            raise RuntimeError(f"apt-get source {package} gave no upstream tarball: {e}") from e
    return dest


#: The upstream license of source packages whose Debian tarball a mirror may lack (the
#: upstream tarball is all that is read; the license is then the upstream's own)
UPSTREAM_LICENSES = {"swiftlang": "Apache-2.0 with Runtime Library Exception"}


def _source_license(dest: Path, package: str) -> str:
    """The ``Files: *`` license of debian/copyright in the package's Debian tarball."""
    for path in sorted(dest.glob(f"{package}_*.debian.tar.*")):
        with tarfile.open(path) as tar:
            for member in tar.getmembers():
                if member.name.endswith("debian/copyright") and member.isfile():
                    data = tar.extractfile(member)
                    if data is not None:
                        return _copyright_license(data.read().decode("utf-8", "replace"))
    return UPSTREAM_LICENSES.get(package, "see debian/copyright")


def _take_from_tarball(taker: _Taker, tarball: Path, package: str, folder: str) -> tuple[int, int]:
    """Give ``taker`` the files of its language under ``folder`` of a tarball whose top
    folder is the project's (in sorted order); the files and bytes it took."""
    wanted: dict[str, bytes] = {}
    with tarfile.open(tarball) as tar:
        # in archive order: seeking back in a compressed stream decompresses it again
        for member in tar:
            rel = member.name.split("/", 1)[-1]
            if not member.isfile() or member.size > MAX_FILE_BYTES:
                continue
            if rel.startswith(folder) and taker.wants(rel):
                data = tar.extractfile(member)
                if data is not None:
                    wanted[rel] = data.read()
    files = total = 0
    for rel in sorted(wanted):
        if taker.take(wanted[rel], taker.out / taker.language / package / rel):
            files += 1
            total += len(wanted[rel])
    return files, total


def fetch_source_files(
    taker: _Taker, tmp: Path, package: str, folder: str, suite: str = "bookworm"
) -> dict:
    """The files of one language in the upstream tarball of a Debian source package of
    ``suite`` (only under ``folder`` of the upstream tree when given)."""
    dest = _download_source(tmp, package, suite)
    origs = sorted(dest.glob(f"{package}_*.orig.tar.*"))
    if not origs:
        raise RuntimeError(f"{package}: no upstream tarball")
    version = origs[-1].name[len(package) + 1 :].split(".orig.tar.")[0]
    files, total = _take_from_tarball(taker, origs[-1], package, folder)
    lic = _source_license(dest, package)
    origin = "Debian source package" + ("" if suite == "bookworm" else f" ({suite})")
    return _entry(taker.language, package, version, lic, origin, files, total)


def _pypi_sdist(tmp: Path, package: str, version: str) -> tuple[Path, str]:
    """The sdist of ``package`` ``version`` from PyPI (the project's JSON, whose release
    list names every version's files; the download checked against the sha256 PyPI lists)
    and the license the project declares."""
    meta_url = f"https://pypi.org/pypi/{package}/json"
    with urllib.request.urlopen(meta_url, timeout=120) as response:
        meta = json.load(response)
    releases = meta.get("releases", {}).get(version, [])
    sdists = [u for u in releases if u["packagetype"] == "sdist"]
    if not sdists:
        raise RuntimeError(f"PyPI has no sdist of {package} {version}")
    url = urllib.parse.urljoin(meta_url, sdists[0]["url"])  # a mirror may give it relative
    with urllib.request.urlopen(url, timeout=600) as response:
        data = response.read()
    if hashlib.sha256(data).hexdigest() != sdists[0]["digests"]["sha256"]:
        raise RuntimeError(f"{sdists[0]['filename']}: sha256 differs from PyPI's")
    path = tmp / sdists[0]["filename"]
    path.write_bytes(data)
    info = meta["info"]
    return path, info.get("license_expression") or (info.get("license") or "").split("\n")[0]


def fetch_sdist_files(taker: _Taker, tmp: Path, package: str, version: str, folder: str) -> dict:
    """The files of one language under ``folder`` of a PyPI sdist."""
    sdist, lic = _pypi_sdist(tmp, package, version)
    files, total = _take_from_tarball(taker, sdist, package, folder)
    return _entry(taker.language, package, version, lic, "PyPI sdist", files, total)


def fetch_new_language(out: Path, budget: Budget, tmp: Path, language: str) -> list[dict]:
    """One language of ``NEW_LANGUAGES``: its packages in order until the budget is full;
    a package that cannot be had is reported and skipped."""
    taker = _Taker(out, language, budget)
    entries = []
    for kind, package, *rest in NEW_LANGUAGES[language]:
        if budget.full():
            break
        try:
            if kind == "deb":
                entry = fetch_deb_files(taker, tmp, package)
            elif kind == "sdist":
                entry = fetch_sdist_files(taker, tmp, package, *rest)
            else:
                entry = fetch_source_files(taker, tmp, package, *rest)
        except (RuntimeError, tarfile.TarError, OSError) as e:
            print(f"skip {package}: {e}", file=sys.stderr)
            continue
        print(f"  {language} {package}: {entry['files']} files, {entry['bytes']} bytes")
        if entry["files"]:
            entries.append(entry)
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


def write_manifest(path: Path, entries: list[dict], languages: list[str]) -> None:
    """Merge ``entries`` into ``path``: they replace the old entries of ``languages``."""
    old = []
    if path.exists():
        old = [
            e
            for e in json.loads(path.read_text(encoding="utf-8"))
            if e["language"] not in languages
        ]
    path.write_text(json.dumps(old + entries, indent=2) + "\n", encoding="utf-8")


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
                elif lang in NEW_LANGUAGES:
                    manifest += fetch_new_language(args.out, budget, tmp, lang)
                else:
                    print(f"unknown language {lang!r}", file=sys.stderr)
                    return 2
            except RuntimeError as e:
                print(f"{lang}: {e}", file=sys.stderr)
                continue
            print(f"{lang}: {budget.used / MB:.1f} MB", file=sys.stderr)
    write_manifest(args.out / "MANIFEST.json", manifest, args.languages)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
