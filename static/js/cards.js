// Cards drawn as cards: the browser's twin of the server's {% card %} tag
// (gameplay/templatetags/card_tags.py and templates/gameplay/_card.html). Cards.html(code)
// returns exactly the markup the tag renders for that code (tests/gameplay/
// test_cards_drawn.py runs both and compares them, card by card), so a pack drawn from a
// snapshot looks like a pool drawn by the server. Codes are read as rules/cards.py
// reads them ("7H", "10S", "qd", "K♦", "JK"); anything else is drawn as its text, marked
// as not a card. A card's corner letters and name are the reader's language's (Django's
// JavaScript catalogue, /jsi18n/, with the server's words and contexts; English where the
// catalogue is not loaded, as under node in the tests).
(function (root) {
  "use strict";
  var pgettext = root.pgettext || function (context, text) { return text; };
  var interpolate = root.interpolate || function (format, values) {
    return format.replace(/%\((\w+)\)s/g, function (whole, name) { return values[name]; });
  };
  var SUITS = {
    C: { symbol: "\u2663", label: pgettext("card suit", "clubs"), colour: "black" },
    D: { symbol: "\u2666", label: pgettext("card suit", "diamonds"), colour: "red" },
    H: { symbol: "\u2665", label: pgettext("card suit", "hearts"), colour: "red" },
    S: { symbol: "\u2660", label: pgettext("card suit", "spades"), colour: "black" }
  };
  var SYMBOL_SUITS = { "\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S" };
  var NAMED_RANKS = { J: 11, Q: 12, K: 13, A: 14 };
  // The codes' letters (the rules' spelling, in data-card) and the letters printed.
  var RANK_CODES = { 11: "J", 12: "Q", 13: "K", 14: "A" };
  var RANK_LABELS = {
    11: pgettext("card rank printed on a jack", "J"),
    12: pgettext("card rank printed on a queen", "Q"),
    13: pgettext("card rank printed on a king", "K"),
    14: pgettext("card rank printed on an ace", "A")
  };
  var RANK_WORDS = [null, null, pgettext("card rank", "Two"), pgettext("card rank", "Three"),
    pgettext("card rank", "Four"), pgettext("card rank", "Five"), pgettext("card rank", "Six"),
    pgettext("card rank", "Seven"), pgettext("card rank", "Eight"),
    pgettext("card rank", "Nine"), pgettext("card rank", "Ten"), pgettext("card rank", "Jack"),
    pgettext("card rank", "Queen"), pgettext("card rank", "King"), pgettext("card rank", "Ace")];
  var JOKER = pgettext("card", "Joker");
  var JOKER_SYMBOL = "\u2605";
  // Sorting a pool by suit: the colours alternate (spades, hearts, clubs, diamonds).
  var SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
  var SIZES = { small: 1, large: 1, inline: 1 };

  // {rank: 2..14, suit: "C"|"D"|"H"|"S"}, {joker: true}, or null for what is not a card.
  function parse(code) {
    var raw = String(code === null || code === undefined ? "" : code).trim().toUpperCase();
    if (raw === "JK" || raw === "JOKER" || raw === "*") return { joker: true, rank: null, suit: null };
    if (raw.length < 2) return null;
    var rankText = raw.slice(0, -1), suitText = raw.slice(-1);
    var suit = SYMBOL_SUITS[suitText] || (SUITS[suitText] ? suitText : null);
    if (!suit) return null;
    var rank = NAMED_RANKS[rankText] || null;
    if (!rank && /^[1-9][0-9]?$/.test(rankText) && +rankText >= 2 && +rankText <= 10) rank = +rankText;
    return rank ? { joker: false, rank: rank, suit: suit } : null;
  }

  // What a card shows (rules.cards.describe): rank, symbol, colour, name; plus
  // the code as the server writes it. A text that is not a card: colour "unknown".
  function describe(code) {
    var card = parse(code);
    if (!card) {
      var text = String(code === null || code === undefined ? "" : code);
      return { code: text, rank: text, symbol: "?", colour: "unknown",
               name: interpolate(pgettext("card", "%(code)s (not a card)"), { code: text }, true) };
    }
    if (card.joker) return { code: "JK", rank: JOKER, symbol: JOKER_SYMBOL, colour: "joker", name: JOKER };
    var suit = SUITS[card.suit], label = RANK_LABELS[card.rank] || String(card.rank);
    var name = interpolate(pgettext("card name: its rank, then its suit", "%(rank)s of %(suit)s"),
                           { rank: RANK_WORDS[card.rank], suit: suit.label }, true);
    return { code: (RANK_CODES[card.rank] || String(card.rank)) + card.suit, rank: label,
             symbol: suit.symbol, colour: suit.colour, name: name };
  }

  // As Django's escape filter writes it (the markup must match the server's, byte for byte).
  function escape(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
  }

  // The markup of one card; options.size: "small" (pools), "large" (a pack to tap),
  // "inline" (a card inside a sentence), or none.
  function html(code, options) {
    var size = options && SIZES[options.size] ? options.size : "";
    if (code === null || code === undefined || String(code).trim() === "") return "";
    var face = describe(code), name = escape(face.name);
    return '<span class="playcard ' + face.colour + (size ? " " + size : "") + '" data-card="' +
      escape(face.code) + '" role="img" aria-label="' + name + '" title="' + name +
      '"><span class="rank">' + escape(face.rank) + '</span><span class="suit">' +
      escape(face.symbol) + "</span></span>";
  }

  // The same card as an element, to append to a page.
  function element(code, options) {
    var holder = document.createElement("template");
    holder.innerHTML = html(code, options);
    return holder.content.firstChild || document.createTextNode("");
  }

  // Sort keys: by "rank" (rank, then suit) or by "suit" (suit, then rank); jokers after
  // the Aces, and what is not a card last.
  function sortKey(code, by) {
    var card = parse(code);
    if (!card) return [9, 99, String(code)];
    var rank = card.joker ? 15 : card.rank, suit = card.joker ? 4 : SUIT_ORDER[card.suit];
    return by === "suit" ? [card.joker ? 5 : suit, rank, ""] : [rank, suit, ""];
  }
  function compare(a, b, by) {
    var x = sortKey(a, by), y = sortKey(b, by);
    for (var i = 0; i < x.length; i++) { if (x[i] < y[i]) return -1; if (x[i] > y[i]) return 1; }
    return 0;
  }
  // A copy of codes in the chosen order ("suit", "rank"; anything else: as given).
  function sorted(codes, by) {
    var list = (codes || []).slice();
    if (by !== "suit" && by !== "rank") return list;
    return list.map(function (c, i) { return [c, i]; })
      .sort(function (p, q) { return compare(p[0], q[0], by) || p[1] - q[1]; })
      .map(function (p) { return p[0]; });
  }

  var Cards = { parse: parse, describe: describe, html: html, element: element, sorted: sorted };
  if (typeof module === "object" && module.exports) module.exports = Cards;
  else root.Cards = Cards;
})(this);
