// The live table: a turn counter and the turn limit after a pass, on each player's phone or
// one shared tablet. The server decides (every tap names the turn number it takes, and a
// tap whose number was taken meanwhile is refused with what took it); this page shows the
// newest snapshot (versions), and keeps counting while the connection is down: taps wait
// in a queue (kept across a reload or an app switch), are shown at once, and are sent in
// order when the connection is back. A tap the server refuses drops the taps queued after
// it, and the page says what happened instead.
//
// A team match (2 vs 2) is played at a table of four: seats 0 and 2 are the first team,
// 1 and 3 the second, the turn order 0, 1, 2, 3 alternates the teams, and once both
// players of a team have passed the other team's players share its turn limit (the
// snapshot's team_split, then the rest; unused turns go to the teammate who is still in).
(function () {
  "use strict";
  // Words through Django's JavaScript catalogue (/jsi18n/, loaded before this file by the
  // page), looked up when said; English as written if the catalogue did not load.
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }
  function ngettext(one, many, count) {
    return window.ngettext ? window.ngettext(one, many, count) : (count === 1 ? one : many);
  }
  function interpolate(format, values) {
    if (window.interpolate) return window.interpolate(format, values, true);
    return format.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  }
  function pgettext(context, text) { return window.pgettext ? window.pgettext(context, text) : text; }
  // Words around an element ("Ana played [7♥]"): the format's %(card)s is where it goes.
  function around(format, values, node) {
    var parts = format.split("%(card)s"), out = document.createDocumentFragment();
    out.appendChild(document.createTextNode(interpolate(parts[0], values)));
    if (parts.length > 1) {
      out.appendChild(node);
      out.appendChild(document.createTextNode(interpolate(parts.slice(1).join(""), values)));
    }
    return out;
  }
  var root = document.getElementById("live-table");
  if (!root) return;
  var tableId = root.dataset.table, mode = root.dataset.mode;
  var storeKey = "table-" + tableId + "-pending";
  var snap = null, version = -1, live = null, nextId = 1, offset = 0;
  var sending = false, connection = "";
  var pageId = String(Math.random()).slice(2, 10), connections = 0;
  var pending = [];  // taps not yet acknowledged: {id, number, kind, player, card}
  var rank = null, suit = null, row = null;
  var csrf = (document.querySelector("[name=csrfmiddlewaretoken]") || {}).value;

  try { pending = JSON.parse(sessionStorage.getItem(storeKey) || "[]"); } catch (e) { pending = []; }
  function save() { try { sessionStorage.setItem(storeKey, JSON.stringify(pending)); } catch (e) {} }

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // A card drawn as a card (static/js/cards.js: the same markup as the server's {% card %}).
  // In the turn log, inline: the height of the log's text.
  function cardChip(code, inline) { return Cards.element(code, inline ? { size: "inline" } : {}); }
  function showError(text) { var box = $("table-error"); box.textContent = text || ""; box.hidden = !text; }
  function setConnection(text, up) {
    var c = $("connection"); c.textContent = text; c.className = "connection " + (up ? "live" : "down");
  }

  function apply(s) {
    if (!s || s.type !== "snapshot" || s.version < version) return;
    version = s.version; snap = s;
    if (s.now) offset = Date.parse(s.now) - Date.now();
    // Taps the server has now leave the queue; a queued tap whose turn went to another
    // tap (the other phone, while this one was offline) drops the queue, and says so.
    var lost = null;
    pending = pending.filter(function (t) {
      if (lost) return false;
      if (t.game_round !== s.game_round_in_match) { lost = lost || t; return false; }
      if (t.number >= s.turn_number) return true;
      var there = s.log[t.number];
      if (!there || there.kind !== t.kind || there.player !== t.player) { lost = t; return false; }
      return false;
    });
    if (lost) {
      var there = s.log[lost.number];
      showError(there
        ? interpolate(gettext("Your tap for turn %(turn)s was not counted: %(what)s was recorded first. The table shows what happened."),
                      { turn: lost.number + 1, what: there.text })
        : interpolate(gettext("Your tap for turn %(turn)s was not counted: the game round had moved on. The table shows what happened."),
                      { turn: lost.number + 1 }));
    }
    save();
    render();
  }

  // What the table looks like with the queued taps on top of the snapshot: an estimate the
  // server confirms or corrects (its engine is the one that counts).
  function projected() {
    var p = { turn: snap.turn_number, to_play: snap.to_play, ended: snap.ended, infinity: snap.infinity,
              left: (snap.turns_left || []).slice(), passed: (snap.passed || []).slice() };
    if (snap.free_for_all) { pending.forEach(function (t) { stepFreeForAll(p, t); }); return p; }
    if (snap.teams) { pending.forEach(function (t) { stepOfFour(p, t); }); return p; }
    pending.forEach(function (t) {
      p.turn += 1;
      p.infinity = false;
      var other = 1 - t.player;
      if (t.kind === "pass") {
        var again = p.passed.indexOf(t.player) >= 0;
        if (p.passed.indexOf(t.player) < 0) p.passed.push(t.player);
        if (snap.pass_is_final && p.passed.indexOf(other) >= 0) { p.ended = true; p.to_play = null; return; }
        if (!again && snap.limit !== null && p.left[other] === null) p.left[other] = snap.limit;
        p.to_play = snap.pass_is_final && p.passed.indexOf(other) >= 0 ? t.player : other;
        return;
      }
      if (!snap.pass_is_final) { var i = p.passed.indexOf(t.player); if (i >= 0) { p.passed.splice(i, 1); p.left[other] = null; } }
      if (p.left[t.player] !== null && p.left[t.player] > 0) p.left[t.player] -= 1;
      if (t.kind === "extra") { p.to_play = t.player; p.infinity = p.left[t.player] === 0; return; }
      if (snap.pass_is_final && p.passed.indexOf(other) >= 0) {
        if (p.left[t.player] === 0) { p.ended = true; p.to_play = null; } else p.to_play = t.player;
      } else p.to_play = other;
    });
    return p;
  }

  // One tap at a table of four (the engine's 2 vs 2, where a pass is final).
  function stepOfFour(p, t) {
    var n = 4, player = t.player, limit = snap.engine_limit, split = snap.team_split;
    function isIn(q) { return p.passed.indexOf(q) < 0; }
    function canAct(q) { var l = p.left[q]; return isIn(q) && (l === null || l === undefined || l > 0); }
    function after(q) { var out = []; for (var k = 1; k <= n; k++) out.push((q + k) % n); return out; }
    p.turn += 1;
    p.infinity = false;
    if (t.kind === "pass") {
      var unused = p.left[player], mate = (player + 2) % n;
      if (unused && isIn(mate)) p.left[mate] = (p.left[mate] || 0) + unused;
      p.passed.push(player);
      p.left[player] = 0;
      [[0, 2], [1, 3]].forEach(function (team) {
        if (!team.every(function (q) { return !isIn(q); })) return;
        var still = after(player).filter(function (q) { return team.indexOf(q) < 0 && isIn(q); });
        if (!still.length || still.some(function (q) { return p.left[q] !== null && p.left[q] !== undefined; })) return;
        if (still.length === 1) p.left[still[0]] = limit;
        else { p.left[still[0]] = split; p.left[still[1]] = limit - split; }
      });
    } else if (p.left[player] !== null && p.left[player] !== undefined && p.left[player] > 0) {
      p.left[player] -= 1;
    }
    if (t.kind === "extra") { p.to_play = player; p.infinity = p.left[player] === 0; return; }
    p.to_play = null;
    after(player).some(function (q) { if (canAct(q)) { p.to_play = q; return true; } return false; });
    p.ended = p.to_play === null;
  }

  // One tap at a pod's table (the engine's free-for-all of 3 or 4): the order goes around
  // the table; once all players but one have passed, that one has the limit. Where a pass
  // is final passed players are skipped; where it is not (Gesoseka) they may act again
  // (which stops the count) and a pass by every player in a row ends the game round.
  function stepFreeForAll(p, t) {
    var n = snap.players, player = t.player, limit = snap.engine_limit;
    function isIn(q) { return p.passed.indexOf(q) < 0; }
    function counts() {
      var still = []; for (var q = 0; q < n; q++) if (isIn(q)) still.push(q);
      if (still.length !== 1) { for (var r = 0; r < n; r++) p.left[r] = null; }
      else if (p.left[still[0]] === null || p.left[still[0]] === undefined) p.left[still[0]] = limit;
    }
    p.turn += 1;
    p.infinity = false;
    p.streak = p.streak || 0;
    if (t.kind === "pass") {
      p.streak += 1;
      if (!snap.pass_is_final && p.streak >= n) { p.ended = true; p.to_play = null; return; }
      if (isIn(player)) { p.passed.push(player); counts(); }
    } else {
      p.streak = 0;
      if (!isIn(player)) { p.passed.splice(p.passed.indexOf(player), 1); for (var q = 0; q < n; q++) p.left[q] = null; }
      counts();
      if (p.left[player] !== null && p.left[player] !== undefined && p.left[player] > 0) p.left[player] -= 1;
      if (t.kind === "extra") { p.to_play = player; p.infinity = p.left[player] === 0; return; }
    }
    p.to_play = null;
    for (var k = 1; k <= n; k++) {
      var next = (player + k) % n, left = p.left[next];
      if (!snap.pass_is_final) { p.to_play = left === 0 && t.kind === "pass" ? null : next; break; }
      if (isIn(next) && (left === null || left === undefined || left > 0)) { p.to_play = next; break; }
    }
    p.ended = p.to_play === null;
  }

  // The team limit in words once a whole team has passed ("Ada: 3 turns left, Bruno: 5").
  function limitLine(p) {
    if (!snap.teams || snap.limit === null) return "";
    var line = "";
    snap.sides.forEach(function (side) {
      if (line) return;
      var limited = side.seats.filter(function (q) {
        return p.passed.indexOf(q) < 0 && p.left[q] !== null && p.left[q] !== undefined;
      });
      if (!limited.length) return;
      line = interpolate(gettext("Turn limit for %(team)s: %(limits)s"), { team: side.name, limits: limited.map(function (q, i) {
        var n = p.left[q], values = { name: snap.seats[q].name, count: n };
        return i === 0
          ? interpolate(ngettext("%(name)s: %(count)s turn left", "%(name)s: %(count)s turns left", n), values)
          : interpolate(gettext("%(name)s: %(count)s"), values);
      }).join(", ") });
    });
    return line;
  }

  // A seat's words with the queued taps counted (the server's seat_words, estimated).
  function projectedSeat(p, i) {
    var passed = p.passed.indexOf(i) >= 0, onTurn = p.to_play === i, n = p.left[i], left = "";
    var state = passed
      ? (onTurn && !snap.pass_is_final ? gettext("Passed · may still play or pass again") : gettext("Passed"))
      : (onTurn ? gettext("On turn") : gettext("Waiting"));
    if (n !== null && n !== undefined && !passed) {
      left = onTurn && p.infinity ? gettext("Extra turn (infinity rule)")
        : interpolate(ngettext("%(count)s turn left", "%(count)s turns left", n), { count: n });
    } else left = snap.limit === null || passed ? "" : gettext("No limit yet");
    return { state: state, left: left, on_turn: onTurn, near: !passed && n !== null && n !== undefined && n <= 2 };
  }

  function canTap(p) {
    if (!snap || snap.closed || snap.status !== "playing" || p.ended || p.to_play === null) return false;
    if (snap.can.indexOf("tap") < 0 && pending.length === 0) return false;
    if (snap.judge || mode === "shared") return snap.you !== null || snap.judge;
    return p.to_play === snap.you;
  }

  function render() {
    if (!snap) return;
    var p = projected();
    $("game-line").textContent = interpolate(gettext("Game %(game)s, game round %(game_round)s"), { game: snap.game, game_round: snap.game_round });
    var headline = snap.headline;
    if (pending.length && !p.ended && p.to_play !== null) {
      var left = p.left[p.to_play], who = snap.seats[p.to_play].name;
      headline = p.infinity
        ? interpolate(gettext("%(name)s's turn: the extra turn just granted (no turns left after it)"), { name: who })
        : left !== null && left !== undefined
          ? interpolate(ngettext("%(name)s's turn · %(count)s turn left", "%(name)s's turn · %(count)s turns left", left), { name: who, count: left })
          : interpolate(gettext("%(name)s's turn"), { name: who });
    } else if (pending.length && p.ended) headline = gettext("Game round over: enter the scores.");
    $("headline").textContent = headline;
    $("turn-counter").textContent = String(p.turn + 1);
    // The match is over: no turn to count, no game round being played.
    $("turn-count-line").hidden = !!snap.closed;
    $("log-box").hidden = !!snap.closed;
    var limitEl = $("limit-line"), limitText = pending.length ? limitLine(p) : (snap.limit_line || "");
    limitEl.textContent = limitText; limitEl.hidden = !limitText;
    // Each seat's words are the server's (empty once the match is over); only while taps
    // wait to be sent does the page count them on top of the snapshot.
    snap.seats.forEach(function (seat, i) {
      var words = pending.length && !snap.closed ? projectedSeat(p, i) : seat;
      $("seat-" + i).classList.toggle("on-turn", !!words.on_turn);
      $("seat-state-" + i).textContent = words.state || "";
      var leftEl = $("seat-left-" + i);
      leftEl.textContent = words.left || "";
      leftEl.classList.toggle("near", !!words.near);
    });
    var tapping = canTap(p);
    ["tap-play", "tap-extra", "tap-pass"].forEach(function (id) {
      var b = $(id); b.disabled = !tapping;
      if (mode === "shared" || snap.judge) {
        var action = { "tap-play": gettext("played a card"), "tap-extra": gettext("played a card · extra turn"),
                       "tap-pass": pgettext("pass the turn", "pass") }[id];
        b.textContent = p.to_play !== null
          ? interpolate(gettext("%(name)s: %(action)s"), { name: snap.seats[p.to_play].name, action: action }) : action;
      }
    });
    $("tap-box").hidden = !snap.taps_open || p.ended;
    var picker = $("card-picker");
    if (picker) picker.hidden = !tapping;
    $("undo").hidden = !(snap.can.indexOf("undo") >= 0 && pending.length === 0);
    $("undo").textContent = snap.you === null ? gettext("Undo the last tap (judge)") : gettext("Undo my last tap");
    $("first-box").hidden = !(snap.can.indexOf("first") >= 0 && pending.length === 0);
    document.querySelectorAll(".first-button").forEach(function (b) {
      b.classList.toggle("secondary", Number(b.dataset.player) !== snap.first);
    });
    var power = $("power-line");
    power.hidden = !snap.power || pending.length > 0;
    if (snap.power) {
      power.textContent = interpolate(gettext("Power: %(a)s %(a_power)s · %(b)s %(b_power)s"), {
        a: snap.sides[0].name, a_power: snap.power[0], b: snap.sides[1].name, b_power: snap.power[1] });
    }
    var scoring = snap.can.indexOf("scores") >= 0 && pending.length === 0;
    var form = $("scores-box");
    if (scoring && form.hidden) {
      // The score helper's power is the game round's score: filled in, to check and save.
      $("score-0").value = snap.power ? snap.power[0] : ""; $("score-1").value = snap.power ? snap.power[1] : "";
    }
    form.hidden = !scoring;
    // Gesoseka and Kontsina: the score helper counts a field or piles; with the cards
    // tapped, each player's cards of this game round are filled in to be grouped there.
    var helper = $("count-with-helper");
    helper.hidden = !(scoring && !snap.free_for_all && (snap.game_code === "gesoseka" || snap.game_code === "kontsina"));
    if (!helper.hidden && snap.game_code === "gesoseka") {
      var played = [[], []];
      snap.log.forEach(function (e) { if (e.card && played[e.player]) played[e.player].push(e.card); });
      $("count-link").href = "/score/gesoseka/?p1-cards=" + encodeURIComponent(played[0].join(" ")) +
        "&p2-cards=" + encodeURIComponent(played[1].join(" "));
    }
    $("confirm-box").hidden = snap.can.indexOf("confirm") < 0;
    // The result first, in the server's words ("Greta wins 2-1: confirm?").
    $("confirm-question").textContent = snap.confirm_question;
    $("match-status").textContent = snap.closed
      ? interpolate(gettext("%(status)s · the table is closed"), { status: snap.match_status_label })
      : snap.match_status_label;
    var games = $("games-list"); games.innerHTML = "";
    (snap.games || []).forEach(function (g, i) {
      var rounds = g.rounds.map(function (r) { return r.join("\u2013"); }).join(", ");
      games.appendChild(el("li", {}, snap.free_for_all
        ? interpolate(gettext("Game %(game)s: %(rounds)s (in seat order)"), { game: i + 1, rounds: rounds })
        : interpolate(gettext("Game %(game)s: %(rounds)s (%(name)s first)"), { game: i + 1, rounds: rounds, name: snap.sides[0].name })));
    });
    var log = $("turn-log"); log.innerHTML = "";
    var entries = snap.log.map(function (e) { return { e: e, queued: false }; })
      .concat(pending.map(function (t) { return { e: t, queued: true }; }));
    entries.slice().reverse().forEach(function (item) {
      var e = item.e, li = el("li", { value: String(e.number + 1) });
      var who = snap.seats[e.player].name;
      var extra = e.kind === "extra";
      if (e.kind === "pass") li.appendChild(document.createTextNode(interpolate(gettext("%(name)s passed"), { name: who })));
      else if (e.card) {
        li.appendChild(around(extra ? gettext("%(name)s played %(card)s (extra turn)") : gettext("%(name)s played %(card)s"),
                              { name: who }, cardChip(e.card, true)));
      } else {
        li.appendChild(document.createTextNode(interpolate(
          extra ? gettext("%(name)s played a card (extra turn)") : gettext("%(name)s played a card"), { name: who })));
      }
      if (item.queued && !e.acked) li.appendChild(el("em", { "class": "muted" }, " · " + gettext("not sent yet")));
      log.appendChild(li);
    });
    var waiting = pending.filter(function (t) { return !t.acked; }).length;
    var note = $("table-pending");
    note.hidden = waiting === 0;
    note.textContent = interpolate(ngettext(
      "%(count)s tap waiting to be sent: the table counts on, and sends them when the connection is back.",
      "%(count)s taps waiting to be sent: the table counts on, and sends them when the connection is back.",
      waiting), { count: waiting });
    renderTimer();
  }

  function renderTimer() {
    var box = $("turn-timer");
    if (!snap || !snap.turn_deadline || pending.length) { box.hidden = true; return; }
    var left = Math.round((Date.parse(snap.turn_deadline) - (Date.now() + offset)) / 1000);
    box.hidden = false;
    box.classList.toggle("over", left <= 0);
    box.textContent = left > 0
      ? interpolate(gettext("Time for this turn: %(time)s"), { time: Math.floor(left / 60) + ":" + ("0" + (left % 60)).slice(-2) })
      : gettext("Over time for this turn");
  }

  // --- the connection ---------------------------------------------------------------------
  // The socket (static/js/live.js): one at a time, a snapshot on every (re)connect, polling
  // the API while it is down, a fresh snapshot asked for when quiet or when the phone comes
  // back. Each opened socket is a new "connection": a queued tap is sent once on each.
  function connect() {
    live = window.Live.open({
      path: "/ws/tables/" + tableId + "/",
      heartbeat: { type: "snapshot" },
      onOpen: function () {
        connection = pageId + ":" + (++connections); setConnection(gettext("Live"), true); flush();
      },
      onMessage: function (message) {
        if (message.type === "snapshot") apply(message);
        else if (message.type === "ack") acknowledged(message.id);
        else if (message.type === "error") refused(message.id, message.detail, message.code);
      },
      onDown: function () {
        connection = "";
        setConnection(gettext("Connection lost: counting on here, reconnecting…"), false);
      },
      onGone: function (code) {
        connection = "";
        // 4403: the user's role or session no longer lets them see it (they were told why).
        if (code === 4403) setConnection(gettext("You may no longer see this table: reload the page."), false);
        else setConnection(gettext("This table is not available."), false);
      },
      poll: poll,
      resync: function () { live.send({ type: "snapshot" }); }
    });
  }
  function poll() {
    fetch("/api/v1/tables/" + tableId + "/", { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) { apply(data); flush(); } }).catch(function () {});
  }

  // An acknowledged tap stays in the queue, shown, until a snapshot holds it: the
  // acknowledgement comes before the snapshot, and a tap made in between must take the
  // next number, not the acknowledged tap's again.
  function acknowledged(id) {
    var changed = false;
    pending.forEach(function (t) { if (t.id === id && !t.acked) { t.acked = true; changed = true; } });
    if (changed) { save(); showError(""); render(); }
    sending = false;
    flush();
  }
  function refused(id, detail, code) {
    var tap = pending.filter(function (t) { return t.id === id; })[0];
    if (tap && code === "turn_ahead") {
      // An earlier tap of this queue is still on its way (over the other channel): send
      // the queue again in a moment, in order.
      sending = false;
      pending.forEach(function (t) { t.sent = ""; });
      setTimeout(flush, 500);
      return;
    }
    if (tap) {
      var dropped = pending.length;
      pending = [];  // the taps after a refused one were counted on top of it
      save();
      detail = detail || gettext("That tap was not recorded.");
      if (dropped > 1) {
        detail += " " + interpolate(ngettext("Your %(count)s later tap was not sent.", "Your %(count)s later taps were not sent.",
                                             dropped - 1), { count: dropped - 1 });
      }
    }
    sending = false;
    showError(detail);
    render();
  }

  // Send the queued taps in order: over the socket all at once (the server takes them in
  // order), over HTTP one after the other.
  function flush() {
    if (!snap || !pending.some(function (t) { return !t.acked; })) return;
    if (live && live.isOpen() && !(sending && Date.now() - sending < 10000)) {
      pending.forEach(function (t) {
        if (t.acked || t.sent === connection) return;
        t.sent = connection; t.sentAt = Date.now();
        live.send({ type: "turn", id: t.id, number: t.number, kind: t.kind, player: t.player, card: t.card || "", row: t.row || "" });
      });
      return;
    }
    if (sending && Date.now() - sending < 10000) return;
    sending = Date.now();
    var t = pending.filter(function (q) { return !q.acked; })[0];
    if (!t) { sending = false; return; }
    t.sentAt = Date.now();
    post("turns/", { number: t.number, kind: t.kind, player: t.player, card: t.card || "", row: t.row || "" }, t.id);
  }

  function post(path, body, id) {
    fetch("/api/v1/tables/" + tableId + "/" + path, {
      method: "POST", credentials: "same-origin", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf } })
      .then(function (r) { return r.json().then(function (data) { return [r.ok, data]; }); })
      .then(function (pair) {
        if (pair[0]) { if (id) acknowledged(id); apply(pair[1]); }
        else { if (id) refused(id, pair[1].detail, pair[1].code); else showError(pair[1].detail); poll(); }
      })
      .catch(function () { sending = false; });  // offline: the tap stays queued
  }

  function send(message, path, body) {
    message.id = "a" + nextId++;
    if (live && live.send(message)) return;
    post(path, body);
  }

  // --- taps ---------------------------------------------------------------------------------
  function tap(kind) {
    var p = projected();
    if (!canTap(p)) return;
    var card = kind !== "pass" && rank ? (rank === "JK" ? "JK" : (suit ? rank + suit : null)) : "";
    if (card === null) { showError(gettext("Choose the card's suit too, or clear the card.")); return; }
    var heartRow = card && snap.rows_for_hearts && card.slice(-1) === "H" ? row : "";
    if (heartRow === null) { showError(gettext("A heart goes to a row: choose the row too.")); return; }
    pending.push({ id: "t" + Date.now() + "-" + nextId++, number: p.turn, kind: kind, player: p.to_play,
                   card: card || "", row: heartRow || "", game_round: snap.game_round_in_match });
    save();
    rank = null; suit = null; row = null; renderPicker();
    showError("");
    render();
    flush();
    if (navigator.vibrate) navigator.vibrate(30);
  }
  ["play", "extra", "pass"].forEach(function (kind) {
    $("tap-" + kind).addEventListener("click", function () { tap(kind); });
  });
  $("undo").addEventListener("click", function () {
    var last = snap.log[snap.log.length - 1];
    if (last) send({ type: "undo", number: last.number }, "undo/", { number: last.number });
  });
  document.querySelectorAll(".first-button").forEach(function (b) {
    b.addEventListener("click", function () {
      var player = Number(b.dataset.player);
      send({ type: "first", player: player }, "first/", { player: player });
    });
  });
  $("scores-box").addEventListener("submit", function (event) {
    event.preventDefault();
    var scores = snap.sides.map(function (side, i) { return Number($("score-" + i).value); });
    if (scores.some(function (s) { return !isFinite(s) || s < 0 || Math.floor(s) !== s; })) { showError(gettext("Scores are whole numbers of 0 or more.")); return; }
    send({ type: "scores", game_round: snap.game_round_in_match, scores: scores }, "scores/",
         { game_round: snap.game_round_in_match, scores: scores });
  });
  $("confirm").addEventListener("click", function () { send({ type: "confirm" }, "confirm/", {}); });

  // The score helper's card picker: a rank, then a suit (a Joker needs none).
  function renderPicker() {
    var shown = $("picked-card");
    if (!shown) return;
    document.querySelectorAll(".pick-rank").forEach(function (b) { b.classList.toggle("chosen", b.dataset.rank === rank); });
    document.querySelectorAll(".pick-suit").forEach(function (b) { b.classList.toggle("chosen", b.dataset.suit === suit); });
    document.querySelectorAll(".pick-row").forEach(function (b) { b.classList.toggle("chosen", b.dataset.row === row); });
    var rows = $("row-picker");
    if (rows) rows.hidden = suit !== "H" || rank === "JK";
    var code = rank === "JK" ? "JK" : (rank && suit ? rank + suit : null);
    shown.replaceWith(code ? Object.assign(cardChip(code), { id: "picked-card" }) : el("span", { id: "picked-card", "class": "playcard empty" },
      rank ? interpolate(gettext("%(rank)s of…"), { rank: rank }) : pgettext("no card chosen", "none")));
  }
  document.querySelectorAll(".pick-rank").forEach(function (b) {
    b.addEventListener("click", function () { rank = b.dataset.rank; if (rank === "JK") suit = null; renderPicker(); });
  });
  document.querySelectorAll(".pick-suit").forEach(function (b) {
    b.addEventListener("click", function () { suit = b.dataset.suit; if (rank === "JK") rank = null; renderPicker(); });
  });
  document.querySelectorAll(".pick-row").forEach(function (b) {
    b.addEventListener("click", function () { row = b.dataset.row; renderPicker(); });
  });
  var clear = $("clear-card");
  if (clear) clear.addEventListener("click", function () { rank = null; suit = null; row = null; renderPicker(); });

  setInterval(function () {
    renderTimer();
    // A tap sent and not answered within a few seconds is sent again: the server knows a
    // repeated tap (same turn number, kind and player) and records it once.
    var now = Date.now(), stale = pending.some(function (t) { return !t.acked && t.sent && now - t.sentAt > 4000; });
    if (stale) { pending.forEach(function (t) { t.sent = ""; }); flush(); }
    // Acknowledged but no snapshot holds it after a while (a lost broadcast): ask.
    var unseen = pending.some(function (t) { return t.acked && now - (t.sentAt || now) > 3000; });
    if (unseen && live) live.send({ type: "snapshot" });
  }, 1000);
  window.addEventListener("online", flush);  // live.js reconnects; meanwhile over HTTP

  apply(JSON.parse($("table-snapshot").textContent));
  connect();
})();
