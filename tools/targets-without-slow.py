#!/usr/bin/env python3
"""Prints the outputs of a meson build dir's targets, relative to it, less
the test programs that only tests of the suite "slow" run.

    ninja -C DIR $(tools/targets-without-slow.py DIR)

tools/test.sh builds its sanitizer build this way: under AddressSanitizer
the CPU emulations of the CUDA kernels (run by slow tests only) take most
of the build's time (test_sgm_emulation.cc alone ~10 minutes on 2 cores).
"""
import json
import os
import subprocess
import sys


def introspect(build, what):
    out = subprocess.run(["meson", "introspect", build, what], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    needed, slow = set(), set()
    for test in introspect(build, "--tests"):
        program = os.path.abspath(test["cmd"][0])
        suites = {s.split(":")[-1] for s in test["suite"]}  # project:suite
        (slow if "slow" in suites else needed).add(program)
    for target in introspect(build, "--targets"):
        for f in target["filename"]:
            path = os.path.abspath(f)
            if path in slow and path not in needed:
                continue
            print(os.path.relpath(path, build))


if __name__ == "__main__":
    main()
