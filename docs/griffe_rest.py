"""A griffe extension: the reST of qipai's docstrings as the API reference's Markdown.

qipai's docstrings are written for Sphinx: cross-references are roles
(``:class:`~qipai.hall.table.Table```, ``:meth:`.State.apply```), examples are doctest
blocks (lines that start with ``>>>``, checked by pytest), and a literal block follows a
paragraph that ends with ``::``.  mkdocstrings' Sphinx style reads the fields (``:param:``,
``:raises:``) but not these, so this extension rewrites every docstring of the package once
it is loaded (``extensions`` in ``mkdocs.yml``):

- a role whose target is in qipai becomes an autorefs link to the target's canonical path
  (where it is documented, not where it is imported); one outside qipai (the standard
  library, a dependency) becomes inline code; one that names nothing is logged as a
  warning, so that ``mkdocs build --strict`` fails on it;
- a doctest block (from its ``>>>`` to the next blank line) becomes a fenced ``pycon``
  block;
- a paragraph's closing ``::`` becomes ``:`` (the indented block after it is already code
  in Markdown).

Targets are found as Sphinx finds them: from the docstring's object outwards (its class,
its module, what the module imports), then, for a name that starts with a dot or is not
in scope, as the one documented object whose path ends with that name.
"""

from __future__ import annotations

import builtins
import importlib.util
import re
from collections.abc import Iterator

import griffe

ROLE = re.compile(r":(?:py:)?(?:mod|class|func|meth|attr|data|exc|obj|const):`([^`]+)`")
TITLED = re.compile(r"^(?P<title>.+?)\s*<(?P<target>[^<>]+)>$")
PACKAGE = "qipai"


class ReSTDocstrings(griffe.Extension):
    """Rewrite the docstrings of the ``qipai`` package from reST to the reference's Markdown."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: object) -> None:
        """Rewrite every docstring of ``pkg`` once the whole package is loaded.

        :param pkg: the package griffe has just loaded; any other than qipai is left as it is.
        """
        if pkg.name != PACKAGE:
            return
        index = Index(pkg)
        for obj in index.objects:
            if obj.docstring is not None:
                obj.docstring.value = to_markdown(obj.docstring.value, obj, index)
        for obj in index.objects:
            if isinstance(obj, griffe.Module) and obj.is_init_module:
                list_reexports(obj)


def list_reexports(package: griffe.Module) -> None:
    """Name what ``package`` imports into its ``__all__`` in its docstring, and only there.

    mkdocstrings renders every object of an ``__all__`` in full, so a re-exported class
    would be documented twice: in its module and in its package.  Its package lists it
    instead, as a link to the one place it is documented.

    :param package: a package's ``__init__`` module.
    """
    names = [str(name) for name in package.exports or ()]
    reexported = [name for name in names if name in package.members and package[name].is_alias]
    if not reexported:
        return
    package.exports = [name for name in names if name not in reexported]
    links = ", ".join(f"[`{name}`][{package[name].final_target.path}]" for name in reexported)
    text = package.docstring.value if package.docstring else ""
    line = f"Imported from its modules: {links}."
    if package.docstring is None:
        package.docstring = griffe.Docstring(line, parent=package)
    else:
        package.docstring.value = f"{text}\n\n{line}"


class Index:
    """Every object defined in the package (not imported), by canonical path."""

    def __init__(self, pkg: griffe.Module) -> None:
        self.pkg = pkg
        self.objects = list(_defined(pkg))
        self.paths = {obj.path for obj in self.objects}

    def canonical(self, path: str) -> str | None:
        """The path where the object at ``path`` is defined, or None if nothing in qipai is there.

        :param path: a dotted path, possibly through a module that imports the object.
        """
        if path != PACKAGE and not path.startswith(PACKAGE + "."):
            return None
        try:
            found = self.pkg.modules_collection[path]
            return str(found.final_target.path if found.is_alias else found.path)
        except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
            return None

    def nearest_ending_with(self, name: str, near: str) -> str | None:
        """The defined object whose path ends with ``.name`` and is nearest to ``near``.

        Nearest is in the package tree: of ``State.apply`` seen from
        ``qipai.games.doudizhu.hand``, the one in ``qipai.games.doudizhu`` before one in
        ``qipai.games.showhand``.  None if there is none, or two are as near.

        :param name: a dotted name, as in ``State.apply``.
        :param near: the path of the object whose docstring names it.
        """
        found = [path for path in self.paths if path.endswith("." + name)]
        if not found:
            return None
        shared = {path: _shared_parts(path, near) for path in found}
        best = max(shared.values())
        nearest = [path for path in found if shared[path] == best]
        return nearest[0] if len(nearest) == 1 else None


def _shared_parts(path: str, other: str) -> int:
    count = 0
    for a, b in zip(path.split("."), other.split("."), strict=False):
        if a != b:
            break
        count += 1
    return count


def _defined(obj: griffe.Object) -> Iterator[griffe.Object]:
    yield obj
    for member in obj.members.values():
        if not member.is_alias and isinstance(member, griffe.Object):
            yield from _defined(member)


def to_markdown(text: str, obj: griffe.Object, index: Index) -> str:
    """``text``, a docstring of ``obj``, with its roles, doctests and ``::`` in Markdown.

    :param text: the docstring, dedented.
    :param obj: the object it documents, the scope its roles are resolved in.
    :param index: the package's objects.
    """
    return _literal_colons(_doctest_fences(_roles(text, obj, index)))


def _roles(text: str, obj: griffe.Object, index: Index) -> str:
    def replace(match: re.Match[str]) -> str:
        return role_markdown(match.group(1), obj, index)

    return ROLE.sub(replace, text)


def role_markdown(content: str, obj: griffe.Object, index: Index) -> str:
    """The Markdown for a role's content: a link into the reference, or code.

    :param content: between the role's backquotes: ``target``, ``~target`` or ``title <target>``.
    :param obj: the object whose docstring holds the role.
    :param index: the package's objects.
    """
    titled = TITLED.match(content)
    target = titled.group("target") if titled else content
    short = target.startswith("~")
    target = target.lstrip("~")
    shown = titled.group("title") if titled else target.rsplit(".", 1)[-1] if short else target
    shown = shown.lstrip(".")
    path = resolve(target, obj, index)
    if path is None:
        if not is_outside(target, obj):
            griffe.logger.warning(
                "%s: cross-reference %r names nothing in %s", obj.path, content, PACKAGE
            )
        return f"`{shown}`"
    if not is_documented(path):
        return f"`{shown}`"
    return f"[`{shown}`][{path}]"


def resolve(target: str, obj: griffe.Object, index: Index) -> str | None:
    """The canonical path of the qipai object that ``target`` names from ``obj``, or None.

    :param target: a role's target without ``~``: absolute, in scope, or ``.``-prefixed.
    :param obj: the object whose docstring names it.
    :param index: the package's objects.
    """
    name = target.lstrip(".")
    absolute = index.canonical(name)
    if absolute is not None:
        return absolute
    first, _, rest = name.partition(".")
    for scoped in _in_scope(first, obj):
        found = index.canonical(f"{scoped}.{rest}" if rest else scoped)
        if found is not None:
            return found
    return index.nearest_ending_with(name, obj.path)


def _in_scope(name: str, obj: griffe.Object) -> Iterator[str]:
    """The paths ``name`` may stand for seen from ``obj``: a member of an enclosing class
    (its own or inherited), then the name as the scope around ``obj`` resolves it."""
    scope: griffe.Object | None = obj
    while scope is not None:
        if scope.is_class:
            member = _member(scope, name)
            if member is not None:
                yield member
        scope = scope.parent
    try:
        yield obj.resolve(name)
    except (griffe.NameResolutionError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return


def _member(cls: griffe.Object, name: str) -> str | None:
    try:
        member = cls.all_members.get(name)
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None
    return None if member is None else str(member.path)


def is_outside(target: str, obj: griffe.Object) -> bool:
    """Whether ``target`` names something outside qipai: a builtin, the standard library, an import.

    :param target: a role's target without ``~``.
    :param obj: the object whose docstring names it.
    """
    first = target.lstrip(".").split(".", 1)[0]
    if first == PACKAGE:
        return False
    if hasattr(builtins, first) or importlib.util.find_spec(first) is not None:
        return True
    try:
        scoped = obj.resolve(first)
    except (griffe.NameResolutionError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return False
    return scoped != PACKAGE and not scoped.startswith(PACKAGE + ".")


def is_documented(path: str) -> bool:
    """Whether the reference shows the object at ``path`` (none of its names is private).

    :param path: a canonical dotted path.
    """
    return not any(
        part.startswith("_") and not part.endswith("__") for part in path.split(".")
    )


def _doctest_fences(text: str) -> str:
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = line[: _indent(line)]
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i])
                i += 1
            gap = [""] if out and out[-1].strip() else []
            out += [*gap, f"{indent}```pycon", *block, f"{indent}```"]
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


def _literal_colons(text: str) -> str:
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.rstrip().endswith("::") and _code_follows(lines, i):
            stripped = line.rstrip()[:-2].rstrip()
            lines[i] = stripped + ":" if stripped else ""
    return "\n".join(lines)


def _code_follows(lines: list[str], i: int) -> bool:
    rest = [line for line in lines[i + 1 :] if line.strip()]
    return bool(rest) and _indent(rest[0]) > _indent(lines[i])


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())
