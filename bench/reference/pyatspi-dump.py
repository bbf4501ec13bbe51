#!/usr/bin/python3
"""Reference client for tree-fetch benchmarks: a full pyatspi dump, the way OSWorld-style dumpers do it.

For every node it reads the role name, name, state set and screen extents, recursively from
the application down. Each run is timed; one JSON line is printed:
  {"nodes": n, "runs_ms": [...], "median_ms": m}

Usage: /usr/bin/python3 bench/reference/pyatspi-dump.py (--pid N | --name APP) [--runs 5]
Run it inside the app's session (DISPLAY, DBUS_SESSION_BUS_ADDRESS). It needs Debian's
python3-pyatspi, which only /usr/bin/python3 has.

A test that needs less than the whole dump may ask for less (the default reads everything):
  --prune-role 'menu bar'      the menu bar is recorded, nothing under it (in LibreOffice, 1,700
                               of Writer's 1,941 nodes): for an effect that shows in the document
  --without states --without extents --without text
                               only roles and names: for a count of named controls
"""
import argparse
import json
import statistics
import sys
import time

import pyatspi


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--pid", type=int, help="process id of the application")
    target.add_argument("--name", help="accessible name of the application (as AT-SPI lists it)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--wait", type=float, default=10.0, help="seconds to wait for the application to register")
    parser.add_argument("--clear-cache", action="store_true", help="drop pyatspi's client-side cache before each run")
    parser.add_argument("--max-children", type=int, default=0, help="skip the children of a node that claims more than this many (a Calc sheet claims 2^31); 0: no limit")
    parser.add_argument("--records", action="store_true", help="also print every node as {role, name, text, states}, in a 'records' list")
    parser.add_argument("--prune-role", action="append", default=[], metavar="ROLE", help="record a node of this role (as pyatspi names it: 'menu bar') but nothing under it; repeatable")
    parser.add_argument("--without", action="append", default=[], choices=["states", "extents", "text"], help="leave this out of every record (states: an empty list); repeatable")
    return parser.parse_args()


def find_application(pid, name, wait_seconds):
    deadline = time.monotonic() + wait_seconds
    while True:
        for application in pyatspi.Registry.getDesktop(0):
            if application is None:
                continue
            try:
                if (pid is not None and application.get_process_id() == pid) or (name is not None and application.name == name):
                    return application
            except Exception:
                continue  # an application that is going away
        if time.monotonic() >= deadline:
            wanted = f"pid {pid}" if pid is not None else f"name {name!r}"
            raise SystemExit(f"pyatspi-dump: no accessible application with {wanted} after {wait_seconds:g} s")
        time.sleep(0.05)


MAX_CHILDREN = 0
WITH_TEXT = False
WITH_STATES = True
WITH_EXTENTS = True
PRUNED_ROLES = frozenset()


def text_of(node):
    try:
        text = node.queryText()
        return text.getText(0, min(text.characterCount, 2000)).replace("\ufffc", "")
    except Exception:
        return ""


def corner_cells(table_node):
    """A skipped sheet's top-left cells through its Table interface, so a check can still read them."""
    try:
        table = table_node.queryTable()
    except Exception:
        return []
    cells = []
    for row in range(min(table.nRows, 10)):
        for column in range(min(table.nColumns, 6)):
            cell = table.getAccessibleAt(row, column)
            if cell is not None:
                cells.append({"role": cell.getRoleName(), "name": cell.name, "states": [], "text": text_of(cell), "children": []})
    return cells


def dump(node):
    """Returns the node and its subtree as plain data; unreadable nodes are skipped, as dumpers do."""
    try:
        record = {
            "role": node.getRoleName(),
            "name": node.name,
            "states": [pyatspi.stateToString(state) for state in node.getState().getStates()] if WITH_STATES else [],
        }
        if WITH_EXTENTS:
            try:
                extents = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                record["extents"] = (extents.x, extents.y, extents.width, extents.height)
            except NotImplementedError:
                pass
        if WITH_TEXT:
            record["text"] = text_of(node)
        children = []
        child_count = 0 if record["role"] in PRUNED_ROLES else node.childCount
        if MAX_CHILDREN > 0 and child_count > MAX_CHILDREN:
            child_count = 0
            if WITH_TEXT:
                record["children"] = corner_cells(node)
                return record
        for index in range(child_count):
            child = node.getChildAtIndex(index)
            if child is not None:
                children.append(dump(child))
        record["children"] = [child for child in children if child is not None]
        return record
    except Exception:
        return None


def count(record):
    return 0 if record is None else 1 + sum(count(child) for child in record["children"])


def flatten(record):
    if record is None:
        return []
    own = {key: value for key, value in record.items() if key != "children"}
    return [own] + [each for child in record["children"] for each in flatten(child)]


def main():
    global MAX_CHILDREN, WITH_TEXT, WITH_STATES, WITH_EXTENTS, PRUNED_ROLES
    arguments = parse_arguments()
    MAX_CHILDREN = arguments.max_children
    WITH_TEXT = arguments.records and "text" not in arguments.without
    WITH_STATES = "states" not in arguments.without
    WITH_EXTENTS = "extents" not in arguments.without
    PRUNED_ROLES = frozenset(arguments.prune_role)
    application = find_application(arguments.pid, arguments.name, arguments.wait)
    runs_ms = []
    nodes = 0
    for _ in range(arguments.runs):
        if arguments.clear_cache:
            application.clear_cache()
        started = time.perf_counter()
        tree = dump(application)
        runs_ms.append(round((time.perf_counter() - started) * 1000, 1))
        nodes = count(tree)
    summary = {"nodes": nodes, "runs_ms": runs_ms, "median_ms": statistics.median(runs_ms)}
    if arguments.records:
        summary["records"] = flatten(tree)
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
