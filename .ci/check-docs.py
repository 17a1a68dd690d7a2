"""Checks that the repository's references to its own documents hold, so that moving or renaming a
document or a section cannot leave a dead pointer behind:

- every `NAME.md` named in a tracked source, script or document is a file of the repository
  (relative to the naming file's folder, or to the repository root);
- every Markdown link `[text](target)` of a `.md` file to a file of the repository exists, and its
  `#anchor`, if any, is a heading of that file (GitHub's anchors);
- every `docs/protocol.md §x` names a section of docs/protocol.md (`## x.`);
- every README section named in quotes (`README "Recording sessions"`, `README's "Events"`,
  `see "Declared screen"` inside the README) begins the title of one of the README's headings;
- `Sources/Gateway/Resources/openapi.yaml`, the copy the build embeds, equals `openapi.yaml`.

Prints each failure with its file and line, and exits 1 if there was one.
Usage: python3 .ci/check-docs.py"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TEXT_SUFFIXES = {".md", ".swift", ".py", ".sh", ".js", ".html", ".css", ".yaml", ".yml", ".toml", ".json", ""}
# Documents of other projects that the code names (SDL's protocol_spec, generic_hmi): not ours.
FOREIGN = re.compile(r"(protocol_spec|rpc_spec|generic_hmi|sdl_core|its) README")
MD_NAME = re.compile(r"(?<![\w./-])((?:\.\./|\./)?[\w./-]*[\w-]\.md)\b")
MD_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
PROTOCOL_SECTION = re.compile(r"docs/protocol\.md ((?:§[a-z](?:\.\d+)?(?:[–-]§[a-z])?(?:, )?)+)")
README_SECTION = re.compile(r"README(?:'s|,)? \"([^\"]+)\"")
SEE_SECTION = re.compile(r"\bsee (?:the )?\"([^\"]+)\"")


def tracked_files():
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\n")
    for name in names:
        path = ROOT / name
        # This script's own docstring shows the patterns, not references.
        if name and name != ".ci/check-docs.py" and path.suffix in TEXT_SUFFIXES and path.is_file() and not path.is_symlink():
            yield path


def slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def headings(path: pathlib.Path) -> list[str]:
    found, fenced = [], False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"^#{1,6} (.+)$", line)):
            found.append(match.group(1).strip())
    return found


def resolve(source: pathlib.Path, name: str):
    for base in (source.parent, ROOT):
        candidate = (base / name).resolve()
        if candidate.is_file():
            return candidate
    return None


def main() -> int:
    failures = []
    readme_titles = [re.sub(r"`", "", h) for h in headings(ROOT / "README.md")]
    protocol_sections = {m.group(1) for h in headings(ROOT / "docs/protocol.md") if (m := re.match(r"([a-z])\. ", h))}
    checked = 0
    for path in tracked_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        relative = path.relative_to(ROOT)
        for number, line in enumerate(text.split("\n"), start=1):
            where = f"{relative}:{number}"
            for match in MD_NAME.finditer(line):
                name = match.group(1)
                before = line[: match.start()]
                if re.search(r"https?://\S*$", before) or FOREIGN.search(line):
                    continue
                checked += 1
                if resolve(path, name) is None:
                    failures.append(f"{where}: {name} is no file of the repository")
            for match in PROTOCOL_SECTION.finditer(line):
                for letter in re.findall(r"§([a-z])", match.group(1)):
                    checked += 1
                    if letter not in protocol_sections:
                        failures.append(f"{where}: docs/protocol.md has no section §{letter}")
            sections = [m.group(1) for m in README_SECTION.finditer(line)]
            if relative.name == "README.md":
                sections += [m.group(1) for m in SEE_SECTION.finditer(line)]
            for section in sections:
                checked += 1
                wanted = section.replace("`", "")
                if not any(title.startswith(wanted) for title in readme_titles):
                    failures.append(f'{where}: the README has no section "{section}"')
            if path.suffix != ".md":
                continue
            for match in MD_LINK.finditer(line):
                target = match.group(1)
                if re.match(r"^[a-z]+:", target):
                    continue
                file_part, _, anchor = target.partition("#")
                linked = path if not file_part else resolve(path, file_part)
                checked += 1
                if linked is None:
                    if not (path.parent / file_part).exists():
                        failures.append(f"{where}: the link to {file_part} leads nowhere")
                    continue
                if anchor and linked.suffix == ".md" and anchor not in {slug(h) for h in headings(linked)}:
                    failures.append(f"{where}: {linked.relative_to(ROOT)} has no heading #{anchor}")
    if (ROOT / "openapi.yaml").read_bytes() != (ROOT / "Sources/Gateway/Resources/openapi.yaml").read_bytes():
        failures.append("Sources/Gateway/Resources/openapi.yaml differs from openapi.yaml: copy it (the build embeds that copy)")
    for failure in failures:
        print(failure)
    print(f"docs: {checked} references checked, {len(failures)} broken")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
