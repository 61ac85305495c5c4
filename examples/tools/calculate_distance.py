#!/usr/bin/env python3
"""A Nuwa executable tool (TOOLS.md §9) in Python: the distance between two points on a grid.

`calculate_distance.py --tool-info` prints the schema; a call gets its arguments as JSON on stdin
(already checked by Nuwa: four integers) and prints one JSON result envelope on stdout.
"""
import json
import math
import sys

INFO = {
    "name": "calculate_distance",
    "description": "Distance between two points (x1, y1) and (x2, y2) on a grid, straight and by steps",
    "parameters": {
        "type": "object",
        "properties": {
            "x1": {"type": "integer", "description": "x of the first point"},
            "y1": {"type": "integer", "description": "y of the first point"},
            "x2": {"type": "integer", "description": "x of the second point"},
            "y2": {"type": "integer", "description": "y of the second point"},
        },
        "required": ["x1", "y1", "x2", "y2"],
    },
    "returns": {
        "type": "object",
        "properties": {"euclidean": {"type": "number"}, "manhattan": {"type": "integer"}},
    },
    "confirm": "none",
    "category": "data",
    "keywords": ["geometry", "grid", "path"],
}


def main() -> None:
    if sys.argv[1:] == ["--tool-info"]:
        print(json.dumps(INFO))
        return
    args = json.load(sys.stdin)
    dx, dy = args["x2"] - args["x1"], args["y2"] - args["y1"]
    result = {"euclidean": round(math.hypot(dx, dy), 4), "manhattan": abs(dx) + abs(dy)}
    print(json.dumps({"success": True, "data": result}))


if __name__ == "__main__":
    main()
