// The live draft page: follows the pod's websocket (static/js/live.js), polls while it is down,
// and never trusts a snapshot older than the one it shows (every snapshot has a version).
// Cards are chosen by their position in the pack (0 is the first card as the snapshot
// lists them), never by card code: a pack may hold two copies of a card (two 7H).
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
  var root = document.getElementById("draft");
  if (!root) return;
  var podId = root.dataset.pod, mode = root.dataset.mode;
  var snap = null, version = -1, offset = 0, live = null, nextId = 1;
  var selected = [];  // positions in the pack in front, in the order tapped
  var sentPick = null;  // "pack/pick" of the pick sent for the pack shown (a double tap sends once)
  var csrf = (document.querySelector("[name=csrfmiddlewaretoken]") || {}).value;

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // Cards are drawn by static/js/cards.js (the same markup as the server's {% card %}).
  // The player's pool is sorted by suit or by rank, as they last chose (on this device).
  var SORT_KEY = "draft-pool-sort";
  var poolSort = "suit";
  try { poolSort = localStorage.getItem(SORT_KEY) === "rank" ? "rank" : "suit"; } catch (e) {}

  function apply(s) {
    if (!s || s.type !== "snapshot" || s.version < version) return;
    var packChanged = !snap || !snap.you || !s.you || JSON.stringify((snap.you || {}).pack) !== JSON.stringify(s.you.pack);
    version = s.version; snap = s;
    offset = Date.parse(s.server_time) - Date.now();
    if (packChanged) {
      selected = (s.you && s.you.highlighted) ? s.you.highlighted.slice() : [];
      sentPick = null;
    }
    render();
  }

  function pausedTap() {
    return gettext("The draft is paused: nothing was picked. Tap again when the organiser resumes it.");
  }
  // The pick's help without its clock (the clock is added every second), or null.
  var pickHelp = null;
  function timeLeft(deadline) { return interpolate(gettext("Time left: %(time)s"), { time: countdown(deadline) }); }

  function showError(text) {
    var box = $("draft-error");
    box.textContent = text; box.hidden = !text;
  }

  function setConnection(text) { $("connection").textContent = text; }

  function poll() {
    fetch("/api/v1/drafts/" + podId + "/", { credentials: "same-origin" })
      .then(function (r) { return r.json(); }).then(apply).catch(function () {});
  }

  // The socket (static/js/live.js): a snapshot on every (re)connect, polling the API while
  // it is down, a fresh snapshot asked for when quiet or when the phone wakes up.
  function connect() {
    live = window.Live.open({
      path: "/ws/drafts/" + podId + "/",
      heartbeat: { type: "snapshot" },
      onOpen: function () { setConnection(gettext("Live")); },
      onMessage: function (message) {
        if (message.type === "snapshot") apply(message);
        else if (message.type === "error") { sentPick = null; showError(message.detail); }
        else if (message.type === "ack") showError("");
      },
      onDown: function () { setConnection(gettext("Connection lost: updating every few seconds, reconnecting…")); },
      // 4403: the user's role or session no longer lets them see the draft (told why).
      onGone: function () { setConnection(gettext("You may no longer see this draft: reload the page.")); },
      poll: poll,
      resync: function () { live.send({ type: "snapshot" }); }
    });
  }

  // Actions go over the socket; without one, over the API (same service, same checks).
  function send(message) {
    message.id = nextId++;
    if (live && live.send(message)) return;
    var base = "/api/v1/drafts/" + podId + "/", url = base + message.type + "/", body = {};
    if (message.type === "pick") body = { pack: message.pack, pick: message.pick, positions: message.positions };
    else if (message.type === "highlight") body = { pack: message.pack, pick: message.pick, positions: message.positions };
    else if (message.type === "auto") { url = base + "seats/" + message.seat + "/auto/"; body = { on: message.on }; }
    fetch(url, { method: "POST", credentials: "same-origin", body: JSON.stringify(body),
                 headers: { "Content-Type": "application/json", "X-CSRFToken": csrf } })
      .then(function (r) { return r.json().then(function (data) { return [r.ok, data]; }); })
      .then(function (pair) {
        if (!pair[0]) { if (message.type === "pick") sentPick = null; showError(pair[1].detail || gettext("That did not work.")); }
        else { showError(""); if (pair[1].snapshot) apply(pair[1].snapshot); else poll(); }
      }).catch(function () { showError(gettext("No connection: try again in a moment.")); });
  }

  function tap(position) {
    var you = snap && snap.you;
    if (snap && snap.status === "paused") {
      // Say so instead of ignoring the tap: nothing is sent while the draft is paused.
      showError(pausedTap());
      return;
    }
    if (!you || !you.pack || snap.status !== "running") return;
    var keep = you.pack.keep, index = selected.indexOf(position);
    var key = you.pack.id + "/" + you.pack.pick;
    if (sentPick === key) return;  // the pick is on its way: a double tap sends it once
    if (index >= 0 && selected.length === keep) {
      // Tapping a highlighted card again confirms the pick.
      sentPick = key;
      send({ type: "pick", pack: you.pack.id, pick: you.pack.pick, positions: selected.slice() });
      return;
    }
    if (index >= 0) selected.splice(index, 1);
    else { selected.push(position); if (selected.length > keep) selected.shift(); }
    send({ type: "highlight", pack: you.pack.id, pick: you.pack.pick, positions: selected.slice() });
    render();
  }

  function countdown(deadline) {
    if (!deadline) return "";
    var left = Math.max(0, Math.round((Date.parse(deadline) - (Date.now() + offset)) / 1000));
    return Math.floor(left / 60) + ":" + ("0" + (left % 60)).slice(-2);
  }

  function render() {
    if (!snap) return;
    if (snap.status !== "paused" && $("draft-error").textContent === pausedTap()) showError("");
    var statusText = { ready: gettext("Waiting for the organiser to start."), running: gettext("Drafting."),
                       paused: gettext("Paused by the organiser."), finished: gettext("The draft is over.") }[snap.status];
    $("status-line").textContent = interpolate(ngettext(
      "Pod %(number)s: %(status)s %(count)s card each; the first pick of a pack keeps 2.",
      "Pod %(number)s: %(status)s %(count)s cards each; the first pick of a pack keeps 2.",
      snap.pack_size), { number: snap.number, status: statusText, count: snap.pack_size });
    if (mode === "pick" && snap.you) renderPick(snap.you);
    renderSeats();
    if (mode !== "pick") renderPools();
    if (mode === "control") renderControls();
  }

  function renderPick(you) {
    var cards = $("pack-cards"); cards.innerHTML = "";
    pickHelp = null;
    if (you.pack && snap.status !== "finished") {
      $("pack-title").textContent = interpolate(gettext("Pack %(pack)s, pick %(pick)s"), { pack: you.pack.id + 1, pick: you.pack.pick });
      var help = interpolate(ngettext(
        "Keep %(count)s card. Tap to highlight, tap a highlighted card again to pick.",
        "Keep %(count)s cards. Tap to highlight, tap a highlighted card again to pick.",
        you.pack.keep), { count: you.pack.keep });
      if (you.deadline) pickHelp = help;
      $("pick-help").textContent = you.deadline ? help + " " + timeLeft(you.deadline) : help;
      you.pack.cards.forEach(function (card, position) {
        var chosen = selected.indexOf(position) >= 0;
        var b = el("button", { type: "button", "class": "card-pick" + (chosen ? " selected" : ""), "data-card": card,
                               "data-position": String(position), "aria-label": Cards.describe(card).name,
                               "aria-pressed": chosen ? "true" : "false" });
        b.appendChild(Cards.element(card, { size: "large" }));
        b.addEventListener("click", function () { tap(position); });
        cards.appendChild(b);
      });
    } else if (snap.status === "ready") {
      $("pack-title").textContent = gettext("The draft has not started yet");
      $("pick-help").textContent = gettext("Your pack appears here when the organiser starts the draft.");
    } else if (snap.status === "finished") {
      $("pack-title").textContent = gettext("Your draft is complete");
      $("pick-help").textContent = "";
    } else {
      // Say who holds the pack this seat waits for (the snapshot's public waiting_on).
      var me = seatAt(you.seat), holder = me && me.waiting_on !== null && me.waiting_on !== undefined ? seatAt(me.waiting_on) : null;
      $("pack-title").textContent = gettext("Waiting for the next pack");
      $("pick-help").textContent = holder ? interpolate(gettext("%(seat)s is picking from it now."), { seat: seatName(holder) }) : "";
    }
    if (snap.status === "paused") {
      pickHelp = null;
      $("pick-help").textContent = gettext("The organiser paused the draft: picks wait until it resumes.");
    }
    // Once the draft is over, where packs pass no longer matters.
    $("neighbours-line").textContent = snap.status === "finished" ? "" : neighbours(you.seat);
    $("queue-line").textContent = you.queued
      ? interpolate(ngettext("%(count)s more pack waiting for you", "%(count)s more packs waiting for you", you.queued), { count: you.queued })
      : "";
    // A team event: every player drafts at a seat of their own; say where the teammate sits
    // (never what they hold: the snapshot does not have it).
    var team = $("team-line"), mates = you.teammates || [];
    team.hidden = !you.team;
    team.textContent = !you.team ? "" : mates.length
      ? interpolate(gettext("You draft for %(team)s; your teammate sits at seat %(seats)s."), {
          team: you.team, seats: mates.map(function (p) { return p + 1; }).join(", ") })
      : interpolate(gettext("You draft for %(team)s."), { team: you.team });
    var pool = $("pool-cards"); pool.innerHTML = "";
    Cards.sorted(you.pool, poolSort).forEach(function (card) { pool.appendChild(Cards.element(card, { size: "small" })); });
    $("pool-count").textContent = you.pool.length;
    document.querySelectorAll(".pool-sort [data-sort]").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.sort === poolSort ? "true" : "false");
    });
  }

  function seatAt(position) {
    for (var i = 0; i < snap.seats.length; i++) if (snap.seats[i].position === position) return snap.seats[i];
    return null;
  }

  function seatName(seat) { return interpolate(gettext("%(name)s (seat %(seat)s)"), { name: seat.name, seat: seat.position + 1 }); }

  // "Packs pass left: you pass to Bruno (seat 3) and get yours from Ada (seat 1)."
  function neighbours(position) {
    var n = snap.seats.length;
    if (n < 2 || position === null || position === undefined) return "";
    var step = snap.direction === "right" ? -1 : 1;
    var to = seatAt((position + step + n) % n), from = seatAt((position - step + n) % n);
    if (!to || !from) return "";
    if (to === from) return interpolate(gettext("Packs pass back and forth between you and %(seat)s."), { seat: seatName(to) });
    var words = snap.direction === "right"
      ? gettext("Packs pass right: you pass to %(to)s and get yours from %(from)s.")
      : gettext("Packs pass left: you pass to %(to)s and get yours from %(from)s.");
    return interpolate(words, { to: seatName(to), from: seatName(from) });
  }

  function renderSeats() {
    var body = document.querySelector("#seats tbody"); body.innerHTML = "";
    snap.seats.forEach(function (seat) {
      var tr = el("tr");
      tr.appendChild(el("td", {}, String(seat.position + 1)));
      tr.appendChild(el("td", {}, seat.auto ? interpolate(gettext("%(name)s (auto-pick)"), { name: seat.name }) : seat.name));
      tr.appendChild(el("td", {}, seat.picks + " / " + snap.picks_per_pack));
      var waiting = seat.queued ? String(seat.queued) : (seat.waiting_on !== null && seat.waiting_on !== undefined ? interpolate(gettext("0 (waiting on seat %(seat)s)"), { seat: seat.waiting_on + 1 }) : "0");
      tr.appendChild(el("td", {}, waiting));
      tr.appendChild(el("td", { "class": "countdown-cell", "data-deadline": seat.deadline || "" }, countdown(seat.deadline)));
      if (mode === "control") {
        var td = el("td"), b = el("button", { type: "button", "class": "small secondary" }, seat.auto ? gettext("Give back") : gettext("Auto-pick"));
        b.addEventListener("click", function () { send({ type: "auto", seat: seat.position, on: !seat.auto }); });
        if (snap.status !== "finished") td.appendChild(b);
        tr.appendChild(td);
      }
      body.appendChild(tr);
    });
  }

  function renderPools() {
    var box = $("pools"), card = $("pools-card");
    if (!box) return;
    var any = snap.seats.some(function (s) { return s.pool; });
    card.hidden = !any; box.innerHTML = "";
    snap.seats.forEach(function (seat) {
      if (!seat.pool) return;
      var p = el("p"), row = el("span", { "class": "card-row" });
      p.appendChild(el("strong", {}, interpolate(gettext("%(name)s:"), { name: seat.name }) + " "));
      seat.pool.forEach(function (c) { row.appendChild(Cards.element(c, { size: "small" })); });
      if (!seat.pool.length) row.appendChild(el("span", { "class": "muted" }, gettext("no card yet")));
      p.appendChild(row);
      box.appendChild(p);
    });
  }

  function renderControls() {
    $("btn-start").hidden = snap.status !== "ready";
    $("btn-pause").hidden = snap.status !== "running";
    $("btn-resume").hidden = snap.status !== "paused";
    $("btn-end").hidden = snap.status === "finished" || snap.status === "ready";
  }

  document.querySelectorAll(".pool-sort [data-sort]").forEach(function (button) {
    button.addEventListener("click", function () {
      poolSort = button.dataset.sort;
      try { localStorage.setItem(SORT_KEY, poolSort); } catch (e) {}
      render();
    });
  });

  document.querySelectorAll("#controls [data-action]").forEach(function (button) {
    button.addEventListener("click", function () {
      var action = button.dataset.action;
      if (action === "end" && !confirm(gettext("End the draft now? The server picks for every seat."))) return;
      if (action === "start") { send({ type: "start" }); return; }
      send({ type: action });
    });
  });

  setInterval(function () {
    document.querySelectorAll(".countdown-cell").forEach(function (td) { td.textContent = countdown(td.dataset.deadline); });
    if (mode === "pick" && snap && snap.you && snap.you.deadline && pickHelp !== null) {
      $("pick-help").textContent = pickHelp + " " + timeLeft(snap.you.deadline);
    }
  }, 1000);
  apply(JSON.parse($("draft-snapshot").textContent));
  connect();
})();
