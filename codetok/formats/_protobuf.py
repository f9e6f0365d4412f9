"""A small proto2 wire-format codec: just enough for SentencePiece's ``ModelProto``.

A message class declares its fields in ``FIELDS`` (number -> :class:`Field`). Decoding
keeps which fields were present (proto2 presence), so a field explicitly set to its
default value is written back; fields the schema does not know are kept as their raw
bytes and written back after the known ones, as the C++ runtime does. Known fields are
written in field-number order, which is the order SentencePiece's own writer uses, so a
read -> write round trip of a SentencePiece file is byte-identical.

Supported scalar kinds: ``int32``, ``int64``, ``uint64``, ``bool``, ``enum``, ``float``,
``double``, ``string``, ``bytes``; plus nested messages and repeated (unpacked, or packed
on read) fields. Not supported: groups are kept as unknown raw bytes only when they are
well formed; maps, oneofs and proto3 implicit presence are not needed here.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any, ClassVar

from codetok.errors import FormatError

__all__ = ["Field", "Message", "DecodeError"]

_VARINT, _I64, _LEN, _SGROUP, _EGROUP, _I32 = 0, 1, 2, 3, 4, 5
_WIRE = {
    "int32": _VARINT,
    "int64": _VARINT,
    "uint64": _VARINT,
    "bool": _VARINT,
    "enum": _VARINT,
    "float": _I32,
    "double": _I64,
    "string": _LEN,
    "bytes": _LEN,
    "message": _LEN,
}


class DecodeError(Exception):
    """Internal: a decoding problem at ``offset``; turned into a FormatError by the caller."""

    def __init__(self, message: str, offset: int, field: str) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.field = field


@dataclass(frozen=True)
class Field:
    """One field of a message schema.

    Args:
        name: the attribute name.
        kind: a scalar kind (``"int32"``, ``"string"``, ...) or ``"message"``.
        default: the value an absent field reads as (``[]`` for repeated fields).
        repeated: the field may occur many times.
        message: the nested :class:`Message` subclass for ``kind == "message"``.
    """

    name: str
    kind: str
    default: Any = None
    repeated: bool = False
    message: type[Message] | None = None


def _read_varint(data: bytes, pos: int, end: int, field: str) -> tuple[int, int]:
    result = 0
    shift = 0
    start = pos
    while True:
        if pos >= end:
            raise DecodeError("truncated varint", start, field)
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise DecodeError("varint longer than 10 bytes", start, field)


def _write_varint(out: bytearray, value: int) -> None:
    if value < 0:
        value += 1 << 64
    while True:
        b = value & 0x7F
        value >>= 7
        if value:
            out.append(b | 0x80)
        else:
            out.append(b)
            return


def _signed(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _skip(data: bytes, pos: int, end: int, wire: int, number: int, field: str) -> int:
    """Position after the payload of a field with wire type ``wire``."""
    if wire == _VARINT:
        return _read_varint(data, pos, end, field)[1]
    if wire == _I64:
        size = 8
    elif wire == _I32:
        size = 4
    elif wire == _LEN:
        size, pos = _read_varint(data, pos, end, field)
    elif wire == _SGROUP:
        while True:
            tag, pos2 = _read_varint(data, pos, end, field)
            if tag & 7 == _EGROUP:
                if tag >> 3 != number:
                    raise DecodeError("mismatched end of group", pos, field)
                return pos2
            pos = _skip(data, pos2, end, tag & 7, tag >> 3, field)
    else:
        raise DecodeError(f"invalid wire type {wire}", pos, field)
    if pos + size > end:
        raise DecodeError(f"field runs past the end of its message ({size} bytes)", pos, field)
    return pos + size


class Message:
    """Base of schema-described proto2 messages with presence and unknown-field keeping.

    Subclasses set ``FIELDS``. Attributes read as their default until set; setting an
    attribute marks it present. ``unknown_fields`` holds raw ``tag + payload`` bytes.
    """

    FIELDS: ClassVar[dict[int, Field]] = {}
    _BY_NAME: ClassVar[dict[str, tuple[int, Field]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._BY_NAME = {f.name: (n, f) for n, f in cls.FIELDS.items()}

    def __init__(self, **values: Any) -> None:
        object.__setattr__(self, "_values", {})
        # Nested messages created on first read of an absent field: written only once
        # something is set in them (C++ "mutable_" semantics without marking presence).
        object.__setattr__(self, "_lazy", {})
        object.__setattr__(self, "unknown_fields", [])
        for k, v in values.items():
            setattr(self, k, v)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        entry = self._BY_NAME.get(name)
        if entry is None:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}")
        values = self._values
        if name in values:
            return values[name]
        f = entry[1]
        if f.repeated:
            values[name] = []  # a mutable list the caller may append to
            return values[name]
        if f.kind == "message":
            lazy = self._lazy
            if name not in lazy:
                assert f.message is not None
                lazy[name] = f.message()
            return lazy[name]
        return f.default

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._BY_NAME:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}")
        self._lazy.pop(name, None)
        self._values[name] = value

    def __delattr__(self, name: str) -> None:
        self._values.pop(name, None)
        self._lazy.pop(name, None)

    def has(self, name: str) -> bool:
        """Whether the field was present in the input, or has been set."""
        v = self._values.get(name)
        if v is None:
            lazy = self._lazy.get(name)
            return lazy is not None and lazy.has_content()
        if isinstance(v, list):
            return bool(v)
        return True

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self) and self.to_bytes() == other.to_bytes()  # type: ignore[attr-defined]
        )

    def __repr__(self) -> str:
        shown = []
        for _, f in sorted(self.FIELDS.items()):
            if self.has(f.name):
                v = self._values[f.name]
                if isinstance(v, list) and len(v) > 3:
                    shown.append(f"{f.name}=[... {len(v)} items]")
                elif isinstance(v, bytes) and len(v) > 16:
                    shown.append(f"{f.name}=<{len(v)} bytes>")
                else:
                    shown.append(f"{f.name}={v!r}")
        return f"{type(self).__name__}({', '.join(shown)})"

    # -- decoding ------------------------------------------------------------------------
    @classmethod
    def _decode(cls, data: bytes, pos: int, end: int, where: str) -> Message:
        msg = cls()
        values = msg._values
        while pos < end:
            tag_at = pos
            tag, pos = _read_varint(data, pos, end, where)
            number, wire = tag >> 3, tag & 7
            if number == 0:
                raise DecodeError("field number 0 is invalid", tag_at, where)
            f = cls.FIELDS.get(number)
            if f is None or (wire != _WIRE[f.kind] and not (f.repeated and wire == _LEN)):
                if wire == _EGROUP:
                    raise DecodeError("unexpected end of group", tag_at, where)
                pos = _skip(data, pos, end, wire, number, f"{where}.<field {number}>")
                msg.unknown_fields.append(bytes(data[tag_at:pos]))
                continue
            fwhere = f"{where}.{f.name}"
            if f.repeated and wire == _LEN and _WIRE[f.kind] != _LEN:  # packed scalars
                size, pos = _read_varint(data, pos, end, fwhere)
                stop = pos + size
                if stop > end:
                    raise DecodeError("packed field runs past its message", pos, fwhere)
                lst = values.setdefault(f.name, [])
                while pos < stop:
                    v, pos = cls._scalar(f, data, pos, stop, fwhere)
                    lst.append(v)
                continue
            if f.kind == "message":
                size, pos = _read_varint(data, pos, end, fwhere)
                if pos + size > end:
                    raise DecodeError(
                        f"nested message of {size} bytes runs past its parent", pos, fwhere
                    )
                assert f.message is not None
                idx = f"[{len(values.get(f.name, []))}]" if f.repeated else ""
                v = f.message._decode(data, pos, pos + size, fwhere + idx)
                pos += size
            else:
                v, pos = cls._scalar(f, data, pos, end, fwhere)
            if f.repeated:
                values.setdefault(f.name, []).append(v)
            else:
                values[f.name] = v
        if pos != end:
            raise DecodeError("message overruns its declared length", pos, where)
        return msg

    @staticmethod
    def _scalar(f: Field, data: bytes, pos: int, end: int, where: str) -> tuple[Any, int]:
        kind = f.kind
        if kind in ("int32", "int64", "uint64", "bool", "enum"):
            raw, pos = _read_varint(data, pos, end, where)
            if kind == "bool":
                return raw != 0, pos
            if kind == "uint64":
                return raw & ((1 << 64) - 1), pos
            return _signed(raw, 32 if kind in ("int32", "enum") else 64), pos
        if kind == "float":
            if pos + 4 > end:
                raise DecodeError("truncated float", pos, where)
            return struct.unpack_from("<f", data, pos)[0], pos + 4
        if kind == "double":
            if pos + 8 > end:
                raise DecodeError("truncated double", pos, where)
            return struct.unpack_from("<d", data, pos)[0], pos + 8
        size, start = _read_varint(data, pos, end, where)
        stop = start + size
        if stop > end:
            raise DecodeError(f"{kind} of {size} bytes runs past its message", pos, where)
        raw = bytes(data[start:stop])
        if kind == "bytes":
            return raw, stop
        try:
            return raw.decode("utf-8"), stop
        except UnicodeDecodeError as e:
            raise DecodeError(f"string is not UTF-8 (byte {e.start})", start, where) from e

    @classmethod
    def from_bytes(cls, data: bytes, *, path: str | None = None) -> Message:
        """Parse a serialized message.

        Raises:
            FormatError: malformed input; the message names the field and byte offset.
        """
        try:
            return cls._decode(memoryview(data).tobytes(), 0, len(data), cls.__name__)
        except DecodeError as e:
            raise FormatError(
                f"{e.message}; not a valid {cls.__name__} (protobuf) file",
                path=path,
                where=f"{e.field} (byte {e.offset})",
            ) from None

    # -- encoding ------------------------------------------------------------------------
    def _encode(self, out: bytearray) -> None:
        values = self._values
        lazy = self._lazy
        for number, f in sorted(self.FIELDS.items()):
            v = values.get(f.name)
            if v is None:
                v = lazy.get(f.name)
                if v is None or not v.has_content():
                    continue
            items = v if f.repeated else [v]
            tag = (number << 3) | _WIRE[f.kind]
            for item in items:
                _write_varint(out, tag)
                self._write_value(out, f, item)
        for raw in self.unknown_fields:
            out += raw

    def has_content(self) -> bool:
        """Whether any field (known or unknown) is present."""
        names = list(self._values) + list(self._lazy)
        return any(self.has(n) for n in names) or bool(self.unknown_fields)

    @staticmethod
    def _write_value(out: bytearray, f: Field, v: Any) -> None:
        kind = f.kind
        if kind == "message":
            sub = bytearray()
            v._encode(sub)
            _write_varint(out, len(sub))
            out += sub
        elif kind == "bool":
            out.append(1 if v else 0)
        elif kind in ("int32", "int64", "enum", "uint64"):
            _write_varint(out, int(v))
        elif kind == "float":
            out += struct.pack("<f", v)
        elif kind == "double":
            out += struct.pack("<d", v)
        else:
            raw = v.encode("utf-8") if kind == "string" else bytes(v)
            _write_varint(out, len(raw))
            out += raw

    def to_bytes(self) -> bytes:
        """Serialize (known fields in number order, then unknown fields)."""
        out = bytearray()
        self._encode(out)
        return bytes(out)
