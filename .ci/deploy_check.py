"""Checks of the container and deployment files that need no Docker engine.

  deploy_check.py dockerfile DOCKERFILE CONTEXT [DOCKERIGNORE]   rules hadolint does not know (and the files its
                                                                  comments name exist)
  deploy_check.py context DEST                                    copy the top-level build context
  deploy_check.py image DOCKERFILE FIELD                          user, expose, env, command or healthcheck of
                                                                  the final stage, one item a line
  deploy_check.py compose CONFIG.yml PROFILE SERVICE...           a profile starts exactly these
  deploy_check.py kustomize DIR                                   every resource listed exists
"""
import fnmatch
import json
import os
import re
import shlex
import shutil
import sys

import yaml


def instructions(path):
    """(keyword, arguments) of each instruction, continuation lines joined, comments dropped."""
    result, pending = [], ""
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if line.lstrip().startswith("#") and not pending:
            continue
        if line.lstrip().startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            result.append((keyword.upper(), rest.strip()))
    return result


def final_stage(path):
    stages = [[]]
    for keyword, rest in instructions(path):
        if keyword == "FROM":
            stages.append([])
        stages[-1].append((keyword, rest))
    return stages[-1]


def ignore_patterns(path):
    if not path or not os.path.exists(path):
        return []
    patterns = [line.strip() for line in open(path, encoding="utf-8") if line.strip() and not line.startswith("#")]
    for pattern in patterns:
        if pattern.startswith("!"):
            sys.exit(f"{path}: exceptions (!) are not supported by this check: {pattern}")
    return patterns


def ignored(relative, patterns):
    """True when RELATIVE or one of its parent folders matches a .dockerignore pattern."""
    parts = relative.split("/")
    for end in range(1, len(parts) + 1):
        prefix = "/".join(parts[:end])
        for pattern in patterns:
            pattern = pattern.rstrip("/")
            if fnmatch.fnmatchcase(prefix, pattern):
                return True
            if pattern.startswith("**/") and fnmatch.fnmatchcase(parts[end - 1], pattern[3:]):
                return True
    return False


# A file of this repository named in a comment: .ci/…, Scripts/…, deploy/…, docs/….
REPOSITORY_PATH = re.compile(r"(?<![\w/.])((?:\.ci|Scripts|deploy|docs)/[\w./-]*[\w-])")


def named_files(path):
    """The repository files a file's comments name (relative to the repository root, the working
    directory), as (line number, path)."""
    found = []
    for number, line in enumerate(open(path, encoding="utf-8"), start=1):
        if line.lstrip().startswith("#"):
            found += [(number, name) for name in REPOSITORY_PATH.findall(line)]
    return found


def check_dockerfile(dockerfile, context, dockerignore=None):
    failures = [f"{dockerfile}:{number}: the comment names {name}, which does not exist"
                for number, name in named_files(dockerfile) if not os.path.exists(name)]
    patterns = ignore_patterns(dockerignore)
    stages = [keyword_rest for keyword_rest in instructions(dockerfile)]
    arguments = {}
    for keyword, rest in stages:
        if keyword == "ARG" and "=" in rest:
            name, _, value = rest.partition("=")
            arguments[name] = value
        if keyword == "FROM":
            image = rest.split()[0]
            for name, value in arguments.items():
                image = image.replace("${" + name + "}", value)
            if ":" not in image.split("/")[-1] or image.endswith(":latest"):
                failures.append(f"FROM {image}: pin a release tag")
        if keyword in ("COPY", "ADD") and "--from=" not in rest:
            words = [word for word in shlex.split(rest) if not word.startswith("--")]
            for source in words[:-1]:
                path = os.path.normpath(os.path.join(context, source))
                if not os.path.exists(path):
                    failures.append(f"{keyword} {source}: not in the build context {context}")
                elif source not in (".", "./") and ignored(os.path.relpath(path, context), patterns):
                    failures.append(f"{keyword} {source}: excluded by {dockerignore}")
    final = final_stage(dockerfile)
    keywords = [keyword for keyword, _ in final]
    users = [rest for keyword, rest in final if keyword == "USER"]
    if not users or users[-1].split(":")[0] in ("0", "root"):
        failures.append("the final stage must run as a non-root USER")
    if "EXPOSE" not in keywords:
        failures.append("the final stage has no EXPOSE")
    if "ENTRYPOINT" not in keywords and "CMD" not in keywords:
        failures.append("the final stage names no ENTRYPOINT or CMD")
    for keyword, rest in final:
        if keyword in ("ENTRYPOINT", "CMD") and not rest.startswith("["):
            failures.append(f"{keyword} must be in exec form (JSON array) so that the process gets SIGTERM")
    return failures


def copy_context(dest, root=".", dockerignore=".dockerignore"):
    """The files `docker build .` sends, with the symbolic links as they are."""
    patterns = ignore_patterns(dockerignore)
    count = 0
    for folder, folders, files in os.walk(root):
        relative_folder = os.path.relpath(folder, root)
        folders[:] = [name for name in folders if not ignored(os.path.normpath(os.path.join(relative_folder, name)), patterns)]
        for name in files + [name for name in folders if os.path.islink(os.path.join(folder, name))]:
            relative = os.path.normpath(os.path.join(relative_folder, name))
            if ignored(relative, patterns):
                continue
            source, target = os.path.join(root, relative), os.path.join(dest, relative)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            if os.path.lexists(target):
                os.remove(target)
            if os.path.islink(source):
                os.symlink(os.readlink(source), target)
            else:
                shutil.copy2(source, target)
            count += 1
    print(f"build context: {count} files")


def image(dockerfile):
    """USER, WORKDIR, ENV, EXPOSE, HEALTHCHECK, ENTRYPOINT and CMD of the final stage."""
    result = {"env": {}, "expose": [], "user": "", "workdir": "/", "entrypoint": [], "cmd": [], "healthcheck": []}
    for keyword, rest in final_stage(dockerfile):
        if keyword == "ENV":
            for word in shlex.split(rest):
                name, _, value = word.partition("=")
                result["env"][name] = value
        elif keyword == "EXPOSE":
            result["expose"] += rest.split()
        elif keyword == "USER":
            result["user"] = rest
        elif keyword == "WORKDIR":
            result["workdir"] = rest
        elif keyword in ("ENTRYPOINT", "CMD"):
            result[keyword.lower()] = json.loads(rest)
        elif keyword == "HEALTHCHECK":
            result["healthcheck"] = json.loads(rest[rest.index("CMD") + 3:])
    return result


def check_compose(config, profile, expected):
    services = yaml.safe_load(open(config, encoding="utf-8"))["services"]
    started = sorted(name for name, service in services.items() if not service.get("profiles") or profile in service["profiles"])
    failures = [] if started == sorted(expected) else [f"profile {profile} starts {started}, expected {sorted(expected)}"]
    for name in started:
        service = services[name]
        if service.get("restart") != "unless-stopped":
            failures.append(f"{name}: restart: unless-stopped")
        for dependency in service.get("depends_on", {}):
            if dependency not in started:
                failures.append(f"{name} depends on {dependency}, which profile {profile} does not start")
        if name.startswith("gateway") and not service.get("healthcheck"):
            failures.append(f"{name}: no healthcheck")
    return failures


def check_kustomization(folder):
    kustomization = yaml.safe_load(open(os.path.join(folder, "kustomization.yaml"), encoding="utf-8"))
    return [f"kustomization.yaml lists {name}, which does not exist" for name in kustomization["resources"] if not os.path.exists(os.path.join(folder, name))]


def main():
    command, arguments = sys.argv[1], sys.argv[2:]
    failures = []
    if command == "dockerfile":
        failures = check_dockerfile(*arguments)
    elif command == "context":
        copy_context(arguments[0])
    elif command == "image":
        found = image(arguments[0])
        items = {
            "user": [found["user"]], "expose": found["expose"], "healthcheck": found["healthcheck"],
            "env": [f"{name}={value}" for name, value in found["env"].items()], "command": found["entrypoint"] + found["cmd"],
        }[arguments[1]]
        print("\n".join(items))
    elif command == "compose":
        failures = check_compose(arguments[0], arguments[1], arguments[2:])
    elif command == "kustomize":
        failures = check_kustomization(arguments[0])
    else:
        sys.exit(__doc__)
    for failure in failures:
        print(f"FAIL {failure}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
