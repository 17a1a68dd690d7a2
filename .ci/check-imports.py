"""Package.swift declares exactly what each target imports: every module a target imports is one of
its dependencies, and every dependency is imported (system modules aside). Reads the manifest with
`swift package dump-package`. Usage: check-imports.py (from the package root)"""
import glob
import json
import re
import subprocess
import sys

SYSTEM = {"PackagePlugin", "Foundation", "FoundationEssentials", "FoundationXML", "Synchronization", "Testing", "XCTest", "Dispatch", "Glibc", "Darwin"}
manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], capture_output=True, text=True, check=True).stdout)
failures = 0
for target in manifest["targets"]:
    if target["type"] == "plugin":
        # A plugin's dependencies are the tools it runs, not modules it imports.
        continue
    declared = set()
    for dependency in target["dependencies"]:
        for kind in ("byName", "product", "target"):
            if kind in dependency:
                declared.add(dependency[kind][0])
    folder = target.get("path") or ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]
    imported = set()
    for path in glob.glob(folder + "/**/*.swift", recursive=True):
        for line in open(path, encoding="utf-8"):
            match = re.match(r"^(?:@testable |@_exported |public |package |internal )?import (?:struct |enum |class |func )?(\w+)", line)
            if match:
                imported.add(match.group(1))
    imported -= SYSTEM
    missing, unused = sorted(imported - declared), sorted(declared - imported)
    if missing or unused:
        failures += 1
        print(f"{target['name']}: imported but not declared {missing}, declared but not imported {unused}")
if failures:
    sys.exit(1)
print(f"{len(manifest['targets'])} targets declare exactly what they import")
