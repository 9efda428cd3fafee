"""Movement costs from the map data: hex terrain, hexside features, line features; cheapest paths.

A step a -> b costs the terrain of b (``terrain_types[].movement``: the unit's movement class, else
``all``) plus every hexside feature on the a|b side (``hexside_types[].movement``: extra cost to
cross). Two features replace that sum when cheaper: a line (road, railway: ``lines`` running a -> b,
``line_types[].movement`` = cost along the line) and a hexside type with ``movement_mode: replace`` (the
EotID road-hexside symbol: "entering through a road hexside costs 1", 10.11; data without a mode: ``style:
 crossing``). ``prohibited``
anywhere (terrain, hexside) or ``playable: false`` terrain blocks the step. ``all`` costs the
unit's whole MA, ``half`` half of it. A terrain type without a cost for the class costs 1.
"""

from __future__ import annotations

import copy
import heapq
from dataclasses import dataclass

from builder.audit import fastpaths

PROHIBITED = "prohibited"
DEFAULT_COST = 1.0
BY_MA = ("all", "half")         # costs that are a share of the unit's allowance
_VARIES = object()              # a step whose cost depends on the allowance


def _cost(table, mclass):
    if not isinstance(table, dict):
        return None
    v = table.get(mclass)
    return table.get("all") if v is None else v


def _number(v, ma: float) -> float | None:
    if v == "all":
        return float(ma)
    if v == "half":
        return ma / 2
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    return None


def shared_costs(ctx, closed: tuple = ()) -> "TerrainCosts":
    """One TerrainCosts per game context, set of closed hexside types and state of the fastpaths switch: its
    step tables read only the map, so every rule and audit of the context shares them (and its searches
    without ZOC). A rule that searches with ZOC takes :meth:`TerrainCosts.for_audit`."""
    shared = getattr(ctx, "_shared_costs", None)
    if shared is None:
        shared = ctx._shared_costs = {}
    key = (closed, fastpaths.ENABLED)
    found = shared.get(key)
    if found is None:
        found = shared[key] = TerrainCosts(ctx, closed_hexsides=set(closed))
    return found


class TerrainCosts:
    def __init__(self, ctx, closed_hexsides: set | None = None) -> None:
        self.ctx = ctx
        self.closed = set(closed_hexsides or ())   # hexside types impassable here (e.g. the dike strategically)
        self.grid = ctx.grid
        self._step: dict = {}
        self._adj: dict = {}          # (class, MA) -> hex -> ((neighbour, cost), ...): steps whose cost uses the MA
        self._fixed: dict = {}        # class -> hex -> ((neighbour, cost), ...): every step the same for any MA
        self._costs: dict = {}        # one float object per cost value (the tables share them)
        self._axial: dict = {}        # hex -> axial coordinates (A*'s distance)
        self._paths: dict = {}        # cached searches (bounded by the allowance, keyed by ZOC state)
        self._fast = fastpaths.ENABLED
        self._barred: dict = {}       # class -> hex -> the terrain type barring it, or None (fastpaths)
        self._into: dict = {}         # class -> hex -> what entering it costs, by its terrain alone (fastpaths)
        self._featured: dict = {}     # hex -> the neighbours across a hexside feature or along a line (fastpaths)
        self._crossings: dict = {}    # (hexside types, line types, class) -> what they do to a step (fastpaths)

    def for_audit(self) -> "TerrainCosts":
        """A TerrainCosts sharing this one's step tables with a cache of searches of its own: a search's key
        names the ZOC state by the ZOC engine's versions, which count from zero in every audit."""
        own = copy.copy(self)
        own._paths = {}
        return own

    def has_costs(self) -> bool:
        return any(isinstance(t.get("movement"), dict) and t["movement"]
                   for t in self.ctx.terrain_types.values())

    def prohibits_any(self) -> bool:
        return any(t.get("playable") is False or PROHIBITED in (t.get("movement") or {}).values()
                   for t in self.ctx.terrain_types.values())

    def terrain_type(self, h):
        return self.ctx.terrain_types.get(self.ctx.terrain(h))

    def prohibited_terrain(self, h, mclass: str):
        """The terrain type that bars *mclass* from hex *h*, or None (remembered per hex and class: fastpaths)."""
        if not self._fast:
            return self._prohibited_terrain(h, mclass)
        table = self._barred.get(mclass)
        if table is None:
            table = self._barred[mclass] = {}
        found = table.get(h, self)
        if found is self:
            if len(table) > 200_000:
                table.clear()
            found = table[h] = self._prohibited_terrain(h, mclass)
        return found

    def _prohibited_terrain(self, h, mclass: str):
        tt = self.terrain_type(h)
        if tt is None:
            return None
        if tt.get("playable") is False or _cost(tt.get("movement"), mclass) == PROHIBITED:
            return tt
        return None

    def step(self, a, b, mclass: str, ma: float) -> float | None:
        """Cost to move a -> b (adjacent), None if the step is prohibited."""
        fixed = self._fixed.get(mclass, {}).get(a)
        if fixed is None and self._fast:        # hex a's steps, worked out once for all its neighbours
            table = self._adj.get((mclass, ma))
            if table is None:
                table = self._adj[(mclass, ma)] = {}
            fixed = self._adjacent(a, mclass, ma, table)
        if fixed is not None:                   # the step table of hex a (prohibited steps are not in it)
            for n, c in fixed:
                if n == b:
                    return c
            if b in self.grid.neighbours(a):
                return None
        key = (a, b, mclass, ma)
        found = self._step.get(key, False)
        if found is not False:
            return found
        found = self._compute_step(a, b, mclass, ma)
        if len(self._step) > 200_000:
            self._step.clear()
        self._step[key] = found
        return found

    def _uses_ma(self, a, b, mclass) -> bool:
        """Whether the a -> b step's cost is a share of the allowance (a cost of ``all`` or ``half``)."""
        return self._step_uses_ma(self.terrain_type(b), self.ctx.hexsides.get(frozenset((a, b)), ()),
                                  self.ctx.lines.get((a, b), ()), mclass)

    def _step_uses_ma(self, tt, sides, along, mclass) -> bool:
        """:meth:`_uses_ma` of a step into terrain type *tt* across the hexside types *sides* along the line
        types *along*."""
        ctx = self.ctx
        if tt is not None and _cost(tt.get("movement"), mclass) in BY_MA:
            return True
        for hid in sides:
            if _cost((ctx.hexside_types.get(hid) or {}).get("movement"), mclass) in BY_MA:
                return True
        return bool(along) and any(_cost((ctx.line_types.get(lid) or {}).get("movement"), mclass) in BY_MA
                                   for lid in along)

    def _compute_step(self, a, b, mclass, ma):
        return self._step_cost(self.terrain_type(b), self.ctx.hexsides.get(frozenset((a, b)), ()),
                               self.ctx.lines.get((a, b), ()), mclass, ma)

    def _step_cost(self, tt, sides, along, mclass, ma):
        """The cost of a step into terrain type *tt* across the hexside types *sides* along the line types
        *along* (the a -> b step's, :meth:`_compute_step`), None if prohibited."""
        ctx = self.ctx
        if tt is not None and tt.get("playable") is False:
            return None
        tv = _cost(tt.get("movement"), mclass) if tt else None
        if tv == PROHIBITED:
            return None
        base = _number(tv, ma)
        base = DEFAULT_COST if base is None else base
        replace = []
        for hid in sides:
            if hid in self.closed:
                return None
            ht = ctx.hexside_types.get(hid) or {}
            hv = _cost(ht.get("movement"), mclass)
            if hv == PROHIBITED:
                return None
            n = _number(hv, ma)
            if n is None:
                continue
            if _replaces(ht):
                replace.append(n)
            else:
                base += n
        for lid in along:
            n = _number(_cost((ctx.line_types.get(lid) or {}).get("movement"), mclass), ma)
            if n is not None:
                replace.append(n)
        return min(base, *replace) if replace else base

    def barring_hexside(self, a, b, mclass: str) -> str | None:
        """The name of the hexside feature that bars the a|b step to *mclass* (a blocked hexside, a lake
        side), None where none does: what a finding names when the direct step is no step at all."""
        for hid in self.ctx.hexsides.get(frozenset((a, b)), ()):
            ht = self.ctx.hexside_types.get(hid) or {}
            if hid in self.closed or _cost(ht.get("movement"), mclass) == PROHIBITED:
                return str(ht.get("name") or hid)
        return None

    def hexside_extra(self, a, b, mclass: str, ma: float) -> float | None:
        """The added cost of the a|b hexside's features (a river's +1), None if one is prohibited."""
        extra = 0.0
        for hid in self.ctx.hexsides.get(frozenset((a, b)), ()):
            ht = self.ctx.hexside_types.get(hid) or {}
            hv = _cost(ht.get("movement"), mclass)
            if hv == PROHIBITED or hid in self.closed:
                return None
            n = _number(hv, ma)
            if n is not None and not _replaces(ht):
                extra += n
        return extra

    def _adjacent(self, h, mclass: str, ma: float, table: dict) -> tuple:
        """((neighbour, cost), ...) of the steps out of *h* that are not prohibited. Built once per
        hex and class where no step's cost uses the allowance (nearly always), else per allowance."""
        fixed = self._fixed.setdefault(mclass, {})
        out = fixed.get(h)
        if out is not None:
            return out
        out = table.get(h)
        if out is not None:
            return out
        steps, varies, costs = [], False, self._costs
        hexsides, lines, terrain_type = self.ctx.hexsides, self.ctx.lines, self.terrain_type
        fast = self._fast
        if fast:                              # most steps cross no feature: their cost is the terrain's
            featured = self._featured_of(h)
            into = self._into.get(mclass)
            if into is None:
                into = self._into[mclass] = {}
        for n in self.grid.neighbours(h):
            if fast and n not in featured:
                found = into.get(n)
                step, blocked, uses, tv = found if found is not None else self._entering(n, mclass, into)
                if uses:
                    varies = True
                if step is not None:        # the same step for any MA, made once
                    steps.append(step)
                elif not blocked:           # _step_cost with no hexside features and no lines
                    c = _number(tv, ma)
                    c = DEFAULT_COST if c is None else c
                    steps.append((n, costs.setdefault(c, c)))
                continue
            # each step's terrain and features looked up once for both tests
            sides, along = hexsides.get(frozenset((h, n)), ()), lines.get((h, n), ())
            if fast:                        # features whose costs read no share of the MA: remembered per kind
                cross = self._crossing(sides, along, mclass)
                if cross is not None:
                    found = into.get(n)
                    _, blocked, uses, tv = found if found is not None else self._entering(n, mclass, into)
                    if uses:
                        varies = True
                    if blocked or cross[0]:
                        continue
                    c = _number(tv, ma)     # _step_cost's sum, term by term in its order
                    c = DEFAULT_COST if c is None else c
                    for x in cross[1]:
                        c += x
                    if cross[2]:
                        c = min(c, *cross[2])
                    steps.append((n, costs.setdefault(c, c)))
                    continue
            tt = terrain_type(n)
            if not varies and self._step_uses_ma(tt, sides, along, mclass):
                varies = True
            c = self._step_cost(tt, sides, along, mclass, ma)
            if c is not None:
                steps.append((n, costs.setdefault(c, c)))
        out = tuple(steps)
        (table if varies else fixed)[h] = out
        return out

    def _entering(self, n, mclass: str, into: dict) -> tuple:
        """(the step (n, cost) when its cost is the same for any MA, else None; whether the terrain bars the
        class; whether the cost is a share of the allowance; the terrain's cost value for the class) of a step
        into hex *n* that crosses no hexside feature and runs along no line: what :meth:`_step_cost` and
        :meth:`_step_uses_ma` read of such a step; remembered in *into* (the class's)."""
        tt = self.terrain_type(n)
        tv = _cost(tt.get("movement"), mclass) if tt else None
        blocked = (tt is not None and tt.get("playable") is False) or tv == PROHIBITED
        uses = tt is not None and _cost(tt.get("movement"), mclass) in BY_MA
        step = None
        if not blocked and not uses:            # (_number reads the MA only for a share of it)
            c = _number(tv, 0.0)
            c = DEFAULT_COST if c is None else c
            step = (n, self._costs.setdefault(c, c))
        found = into[n] = (step, blocked, uses, tv)
        return found

    def _crossing(self, sides, along, mclass: str):
        """What crossing the hexside types *sides* along the line types *along* does to a step of *mclass*
        (:meth:`_step_cost`'s loops over them): (whether it is barred, the costs added in order, the costs
        that may replace the sum, in order); None when one of them costs a share of the MA (the caller works
        the step out in full). Remembered per kind of crossing."""
        key = (tuple(sides), tuple(along), mclass)
        found = self._crossings.get(key, self)
        if found is not self:
            return found
        ctx = self.ctx
        hexside_types, line_types = ctx.hexside_types, ctx.line_types
        if any(_cost((hexside_types.get(hid) or {}).get("movement"), mclass) in BY_MA for hid in sides) or \
                any(_cost((line_types.get(lid) or {}).get("movement"), mclass) in BY_MA for lid in along):
            found = None
        else:
            barred, adds, replaces = False, [], []
            for hid in sides:
                if hid in self.closed:
                    barred = True
                    break
                ht = hexside_types.get(hid) or {}
                hv = _cost(ht.get("movement"), mclass)
                if hv == PROHIBITED:
                    barred = True
                    break
                n = _number(hv, 0.0)        # (not a share of the MA: it is not read)
                if n is None:
                    continue
                (replaces if _replaces(ht) else adds).append(n)
            for lid in along:
                n = _number(_cost((line_types.get(lid) or {}).get("movement"), mclass), 0.0)
                if n is not None:
                    replaces.append(n)
            found = (barred, tuple(adds), tuple(replaces))
        self._crossings[key] = found
        return found

    def _featured_of(self, h) -> frozenset:
        """The neighbours of *h* across a hexside feature or along a line from it (the index of them is made
        once from the map's hexsides and lines)."""
        index = self._featured
        if not index:
            pairs = [tuple(side) for side in self.ctx.hexsides if len(side) == 2]
            pairs += [(b, a) for a, b in pairs]
            pairs += list(self.ctx.lines)
            built: dict = {}
            for a, b in pairs:
                built.setdefault(a, set()).add(b)
            index.update({a: frozenset(bs) for a, bs in built.items()})
            index[None] = _EMPTY            # (made: not empty any more, even for a map with no features)
        return index.get(h, _EMPTY)

    def lower_bound(self, mclass: str, ma: float) -> float:
        """The least any step can cost the class (A*'s heuristic per hex of distance; 0 disables it)."""
        key = ("min", mclass, ma)
        found = self._step.get(key)
        if found is None:
            ctx, costs = self.ctx, []
            for tt in ctx.terrain_types.values():
                costs.append(_number(_cost(tt.get("movement"), mclass), ma))
            for ht in ctx.hexside_types.values():
                if _replaces(ht):
                    costs.append(_number(_cost(ht.get("movement"), mclass), ma))
            for lt in ctx.line_types.values():
                costs.append(_number(_cost(lt.get("movement"), mclass), ma))
            known = [c for c in costs if c is not None]
            found = max(0.0, min(known + [DEFAULT_COST]))
            self._step[key] = found
        return found

    def cheapest(self, start, goal, mclass: str, ma: float, limit: float | None = None,
                 zoc: "ZocCosts | None" = None) -> float | None:
        """The cheapest cost from *start* (a hex, or [(hex, cost already spent)] for several
        possible starts, e.g. a reinforcement's entry hexes) to *goal*; None if no path exists (or,
        with *limit*, none costing at most *limit*). With *zoc*, enemy-ZOC entry/exit costs, stops
        and the no-ZOC-to-ZOC rule apply. Results are cached (per ZOC state)."""
        found = self.path(start, goal, mclass, ma, limit, zoc)
        return None if found is None else found[0]

    def path(self, start, goal, mclass: str, ma: float, limit: float | None = None,
             zoc: "ZocCosts | None" = None) -> tuple | None:
        """(cost, [(hex, cost of entering it), ...]) of the cheapest path, start first (its cost is
        what was already spent there); None as for :meth:`cheapest`."""
        starts = ((start, 0.0),) if not isinstance(start, (list, set, frozenset)) \
            else tuple(sorted(((h, float(c)) for h, c in start), key=repr))
        # the ZOC state by what ZocCosts compares (its version and costs), not the ZocCosts itself: a cached
        # search must not keep the enemy zone's hexes alive (thousands of sets of 16 KB on a long log)
        key = (starts, goal, mclass, ma, limit, None if zoc is None else zoc.identity())
        cache = self._paths
        if key in cache:
            return cache[key]
        found = self._search(starts, goal, mclass, ma, limit, zoc)
        if len(cache) > 4_096:              # bounded: most keys die with the ZOC state they name
            cache.clear()
        cache[key] = found
        return found

    def _search(self, starts, goal, mclass, ma, limit, zoc):
        """A* (Dijkstra with an admissible distance bound), bounded by *limit*. Heap entries are
        (f, cost, hex): ties go to the cheaper, then the lower hex, so a path is the same every time."""
        table = self._adj.setdefault((mclass, ma), {})
        fixed = self._fixed.setdefault(mclass, {})
        adjacent = self._adjacent
        unit = self.lower_bound(mclass, ma)
        axial = self._axial
        to_axial = self.grid.lattice.to_axial
        gq, gr = to_axial(goal)
        heappush, heappop = heapq.heappush, heapq.heappop

        def dist(h) -> int:
            a = axial.get(h)
            if a is None:
                a = axial[h] = to_axial(h)
            dq, dr = a[0] - gq, a[1] - gr
            return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

        inf = float("inf")
        bound = inf if limit is None else limit + 1e-9
        best: dict = {}
        parent: dict = {}
        heap = []
        first = set()
        for h, c in starts:
            if c < best.get(h, inf):
                best[h] = c
                parent[h] = None
                first.add(h)
                heappush(heap, (c + unit * dist(h), c, h))
        if zoc is not None:
            z0, z1 = _zone_parts(zoc.hexes, self._fast)
            enter, leave, stop, zoc_to_zoc = zoc.enter, zoc.leave, zoc.stop, zoc.zoc_to_zoc
        else:                                       # no EZOC: no hex is in one, and c + 0.0 + 0.0 == c
            z0, z1, enter, leave, stop, zoc_to_zoc = _EMPTY, _EMPTY, 0.0, 0.0, False, True
        while heap:
            _, d, h = heappop(heap)
            if d > best[h]:
                continue
            if h == goal:
                steps = []
                while h is not None:
                    steps.append(h)
                    h = parent[h]
                steps.reverse()
                costs = [best[steps[0]]] + [best[b] - best[a] for a, b in zip(steps, steps[1:])]
                return d, list(zip(steps, costs))
            adj = fixed.get(h)
            if adj is None:
                adj = adjacent(h, mclass, ma, table)
            in_z = h in z0 or h in z1
            if in_z and stop and h not in first:
                continue                            # entering an EZOC ended the move
            out = leave if in_z else 0.0            # (h's part of every step out of it, in the same sum)
            no_zz = in_z and not zoc_to_zoc
            for n, c in adj:
                n_z = n in z0 or n in z1
                if no_zz and n_z:
                    continue
                nd = d + (c + (enter if n_z else 0.0) + out)
                old = best.get(n)
                if old is None or nd < old:
                    if unit:
                        a = axial.get(n)
                        if a is None:
                            a = axial[n] = to_axial(n)
                        dq, dr = a[0] - gq, a[1] - gr
                        f = nd + unit * ((abs(dq) + abs(dr) + abs(dq + dr)) // 2)
                    else:
                        f = nd
                    if f <= bound:
                        best[n] = nd
                        parent[n] = h
                        heappush(heap, (f, nd, n))
        return None

    def within(self, start, goal, mclass: str, ma: float, zoc: "ZocCosts | None" = None) -> bool:
        """Whether goal can be reached from start for at most *ma* (a search bounded by *ma*)."""
        if self._fast and not isinstance(start, (list, set, frozenset)) and self._short_within(start, goal, mclass,
                                                                                              ma, zoc):
            return True
        return self.cheapest(start, goal, mclass, ma, limit=ma, zoc=zoc) is not None

    def within_or_path(self, start, goal, mclass: str, ma: float, zoc: "ZocCosts | None" = None,
                       otherwise=None) -> bool:
        """:meth:`within` for one start hex (fastpaths), or *otherwise()*: the short test, *otherwise*, then the
        cheapest path unbounded (the one a finding reports, so an over-allowance move is searched once, not
        twice) compared with *ma* as the bounded search would (a path is found within the bound iff the
        cheapest costs at most ma + 1e-9)."""
        if self._short_within(start, goal, mclass, ma, zoc) or (otherwise is not None and otherwise()):
            return True
        found = self.path(start, goal, mclass, ma, zoc=zoc)
        return found is not None and found[0] <= ma + 1e-9

    def _short_within(self, start, goal, mclass, ma, zoc) -> bool:
        """The common move of one or two hexes: True when a path of at most two steps reaches *goal* within
        *ma* under the search's own rules (costs, prohibited steps, EZOC costs, stops, ZOC to ZOC) and
        within its pruning (cost so far plus the distance bound), so the search would find a path too.
        False says nothing: the caller searches."""
        if start == goal:
            return True
        bound = ma + 1e-9
        table = self._adj.get((mclass, ma))
        if table is None:
            table = self._adj[(mclass, ma)] = {}
        fixed = self._fixed.get(mclass)
        first = fixed.get(start) if fixed is not None else None
        if first is None:
            first = self._adjacent(start, mclass, ma, table)
        least = None                                # the search's bound per hex of distance, asked once
        around = self.grid.neighbours(goal)         # a hex a second step can reach the goal from
        if zoc is None:
            for m, c1 in first:                     # the step to the goal first (most moves are one hex)
                if m == goal:
                    if c1 <= bound:
                        return True
                    break
            for m, c1 in first:
                if m == goal:
                    if c1 <= bound:
                        return True
                    continue
                if m not in around:
                    continue                        # not a step from the goal
                if least is None:
                    least = self.lower_bound(mclass, ma)
                if c1 + least > bound:
                    continue                        # pruned there
                second = fixed.get(m) if fixed is not None else None
                if second is None:
                    second = self._adjacent(m, mclass, ma, table)
                for n, c2 in second:
                    if n == goal:
                        if c1 + c2 <= bound:
                            return True
                        break
            return False
        z0, z1 = _zone_parts(zoc.hexes, True, few=True)
        enter, leave, stop, zoc_to_zoc = zoc.enter, zoc.leave, zoc.stop, zoc.zoc_to_zoc
        s_z = start in z0 or start in z1
        g_z = None
        for m, c1 in first:                         # the step to the goal first, as the loop below prices it
            if m == goal:
                g_z = goal in z0 or goal in z1
                if not (s_z and g_z and not zoc_to_zoc) and \
                        c1 + (enter if g_z else 0.0) + (leave if s_z else 0.0) <= bound:
                    return True
                break
        for m, c1 in first:
            if m != goal and m not in around:
                continue                            # neither the goal nor a step from it
            m_z = m in z0 or m in z1
            if s_z and m_z and not zoc_to_zoc:
                continue
            c1 = c1 + (enter if m_z else 0.0) + (leave if s_z else 0.0)
            if m == goal:
                if c1 <= bound:
                    return True
                continue
            if least is None:
                least = self.lower_bound(mclass, ma)
            if c1 + least > bound or (m_z and stop):
                continue                            # pruned there, or entering the EZOC ends the move
            second = fixed.get(m) if fixed is not None else None
            if second is None:
                second = self._adjacent(m, mclass, ma, table)
            for n, c2 in second:
                if n != goal:
                    continue
                if g_z is None:
                    g_z = goal in z0 or goal in z1
                if m_z and g_z and not zoc_to_zoc:
                    break
                c2 = c2 + (enter if g_z else 0.0) + (leave if m_z else 0.0)
                if c1 + c2 <= bound:
                    return True
                break
        return False


@dataclass(frozen=True)
class ZocCosts:
    """What enemy zones of control do to a path (builder.audit.engines.zoc): the EZOC hexes (with
    the ZOC state's version, so cached paths stay valid until a zone changes)."""

    hexes: frozenset
    version: tuple
    enter: float = 0.0
    leave: float = 0.0
    stop: bool = False
    zoc_to_zoc: bool = True

    def identity(self) -> tuple:
        """What two ZocCosts are equal by: the ZOC state's version and the costs."""
        return (self.version, self.enter, self.leave, self.stop, self.zoc_to_zoc)

    def __hash__(self) -> int:
        return hash(self.identity())

    def __eq__(self, other) -> bool:
        return isinstance(other, ZocCosts) and self.identity() == other.identity()


_EMPTY = frozenset()


def _zone_parts(hexes, split: bool, few: bool = False) -> tuple:
    """Two containers whose ``in`` together is the EZOC's: with *split* (fastpaths), an enemy zone of two sides
    (the Axis's) as the two sides' own tables, read in place (no set of both made for each state of the zones,
    no call of the view's ``in``); else the container the zone offers for searches (builder.audit.engines.zoc
    EnemyZone.members; *few*: for a test of a few hexes, lookup, which makes no set) and an empty one."""
    zones = getattr(hexes, "zones", None) if split else None
    if zones is not None and len(zones) == 2:
        return zones[0], zones[1]
    if few:
        return (hexes.lookup() if hasattr(hexes, "lookup") else hexes), _EMPTY
    return (hexes.members() if hasattr(hexes, "members") else hexes), _EMPTY


def _replaces(hexside_type: dict) -> bool:
    """Whether crossing this hexside replaces the terrain cost (a road) rather than adding to it.
    Data without ``movement_mode``: a hexside drawn ``style: crossing`` is read as a road."""
    mode = hexside_type.get("movement_mode")
    return mode == "replace" if mode else hexside_type.get("style") == "crossing"
