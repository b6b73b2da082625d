/* rulekb: typo-tolerant search over the rules, shown above Sphinx's full-text results.
 *
 * The index (window.RULEKB_SEARCH, from rulekb-search-index.js) lists every rule, unit type
 * and concept with the folded words and lemmas of its title and aliases and the lemmas of its
 * text. A query's inflected words cannot be lemmatised here, so each query word is compared
 * with index words by edit distance (Damerau-Levenshtein, optimal string alignment), by the
 * same distance on crudely stemmed forms (Russian endings cut off) and by typed prefix.
 * Hits far below the best one are not shown; the system of the page the reader is in (the
 * form's ``sys``) comes first, and the search page has a filter by system.
 * Data is only ever put into the page as text (textContent), never as HTML.
 */
(function () {
  "use strict";

  var MATCH = 0.78;
  var MAX_HITS = 20;
  var MAX_SUGGEST = 8;
  var MIN_SCORE = 0.5;     // below this a hit is noise
  var NEAR_BEST = 0.45;    // a hit far below the best one is not shown
  var ENDINGS = [
    "иями", "ями", "ами", "ого", "его", "ому", "ему", "ыми", "ими", "ией", "ий", "ый", "ой",
    "ая", "яя", "ое", "ее", "ые", "ие", "ых", "их", "ым", "им", "ую", "юю", "ия", "ию", "ья",
    "ье", "ью", "ей", "ом", "ем", "ам", "ям", "ах", "ях", "ов", "ев", "а", "я", "о", "е", "ы",
    "и", "у", "ю", "й", "ь"
  ];
  var KIND_LABELS = { rule: "правило", unit_type: "тип подразделения", concept: "понятие" };
  var KIND_RANK = { rule: 0, unit_type: 0, concept: 1 };

  function fold(text) {
    return String(text).toLowerCase().replace(/ё/g, "е")
      .replace(/[^0-9a-zа-я]+/g, " ").trim();
  }

  function queryWords(text) {
    var f = fold(text);
    if (!f) return [];
    return f.split(" ").filter(function (w) { return w.length >= 3 || /\d/.test(w); });
  }

  function stem(word) {
    if (/\d/.test(word)) return word;
    for (var i = 0; i < ENDINGS.length; i++) {
      var e = ENDINGS[i];
      if (word.length - e.length >= 3 && word.slice(-e.length) === e) {
        return word.slice(0, -e.length);
      }
    }
    return word;
  }

  // Optimal string alignment distance (Damerau-Levenshtein without repeated edits).
  function distance(a, b) {
    var n = a.length, m = b.length;
    if (!n) return m;
    if (!m) return n;
    var prev2 = null, prev = [], cur;
    for (var j = 0; j <= m; j++) prev.push(j);
    for (var i = 1; i <= n; i++) {
      cur = [i];
      for (j = 1; j <= m; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        if (prev2 && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
          v = Math.min(v, prev2[j - 2] + 1);
        }
        cur.push(v);
      }
      prev2 = prev;
      prev = cur;
    }
    return prev[m];
  }

  function commonPrefix(a, b) {
    var k = 0;
    while (k < a.length && k < b.length && a[k] === b[k]) k++;
    return k;
  }

  /** How alike a query word and an index word are, 0..1. */
  function similarity(q, w) {
    if (q === w) return 1;
    if (/\d/.test(q) || /\d/.test(w)) return 0;   // "3d6" is not "2d6"
    if (Math.abs(q.length - w.length) > 6) return 0;
    var longest = Math.max(q.length, w.length);
    var best = 1 - distance(q, w) / longest;
    var qs = stem(q), ws = stem(w);
    if (qs === ws) {
      best = Math.max(best, 0.95);
    } else if (qs.length >= 3 && ws.length >= 3) {
      best = Math.max(best, 0.92 * (1 - distance(qs, ws) / Math.max(qs.length, ws.length)));
    }
    var lcp = commonPrefix(q, w);
    if (lcp === q.length && q.length >= 4) {
      best = Math.max(best, 0.7 + 0.2 * q.length / w.length);   // a word still being typed
    } else if (lcp >= 5) {
      best = Math.max(best, 0.6 + 0.35 * lcp / longest);
    }
    return best;
  }

  function bestOver(simByWord, ids) {
    var best = 0;
    for (var i = 0; i < ids.length; i++) {
      var s = simByWord[ids[i]];
      if (s !== undefined && s > best) best = s;
    }
    return best;
  }

  /** Ranked hits for a query: [{entry, score}], best first. */
  function rank(index, query) {
    var qs = queryWords(query);
    if (!index || !qs.length) return [];
    // one pass over the vocabulary per query word: similarity of every close word
    var sims = qs.map(function (q) {
      var found = {};
      for (var i = 0; i < index.vocabulary.length; i++) {
        var s = similarity(q, index.vocabulary[i]);
        if (s >= MATCH) found[i] = s;
      }
      return found;
    });
    var hits = [];
    index.entries.forEach(function (entry) {
      // each query word counts where it matches best: the name, the stated numbers, the text
      var words = 0, named = 0, matched = 0, titleHit = {};
      sims.forEach(function (simByWord) {
        var n = bestOver(simByWord, entry.name_words);
        var f = bestOver(simByWord, entry.fact_words);
        var t = bestOver(simByWord, entry.text_words);
        if (n || f || t) matched++;
        if (n) named++;
        words += Math.max(2 * n, 0.8 * f, 0.6 * t) + 0.1 * t;
        entry.title_words.forEach(function (id) {
          if (simByWord[id] !== undefined) titleHit[id] = true;
        });
      });
      if (!matched) return;
      var count = qs.length;
      var coverage = entry.title_words.length
        ? Object.keys(titleHit).length / entry.title_words.length : 0;
      var score = words / count + (named ? 0.5 * coverage : 0) + (matched === count ? 0.3 : 0);
      hits.push({ entry: entry, score: score });
    });
    hits.sort(function (a, b) {
      return b.score - a.score
        || (KIND_RANK[a.entry.kind] || 0) - (KIND_RANK[b.entry.kind] || 0)
        || a.entry.title.length - b.entry.title.length
        || (a.entry.title < b.entry.title ? -1 : a.entry.title > b.entry.title ? 1 : 0);
    });
    return hits;
  }

  /** The hits worth showing: those near the best one's score, best first; with ``system``,
   * that system's hits come before the others (each group keeps its order). */
  function search(index, query, system) {
    var hits = rank(index, query);
    function near(group) {
      if (!group.length) return group;
      var floor = Math.max(MIN_SCORE, NEAR_BEST * group[0].score);
      return group.filter(function (h) { return h.score >= floor; });
    }
    if (!system) return near(hits);
    // each group is cut near its own best: a weak hit of the reader's system still shows
    var mine = near(hits.filter(function (h) { return h.entry.system === system; }));
    var others = near(hits.filter(function (h) { return h.entry.system !== system; }));
    return mine.concat(others);
  }

  function systemOfSlug(index, slug) {
    if (!slug) return "";
    var slugs = index.slugs || {};
    for (var id in slugs) {
      if (Object.prototype.hasOwnProperty.call(slugs, id) && slugs[id] === slug) return id;
    }
    return index.systems[slug] ? slug : "";
  }

  function rootUrl() {
    var root = document.documentElement.dataset.content_root;
    return root === undefined ? "" : root;
  }

  function hitItem(hit, index, system, withText) {
    var e = hit.entry;
    var li = document.createElement("li");
    li.className = "rulekb-hit kind-" + e.kind +
      (system && e.system !== system ? " rulekb-other-system" : "");
    var a = document.createElement("a");
    a.href = rootUrl() + e.url;
    a.textContent = e.title;
    li.appendChild(a);
    var info = document.createElement("span");
    info.className = "rulekb-hit-info";
    var parts = [KIND_LABELS[e.kind] || e.kind];
    if (!e.defined) parts.push("не описано в корпусе");
    if (e.context) parts.push(e.context);
    parts.push(index.systems[e.system] || e.system);
    if (e.aliases.length) parts.push("также: " + e.aliases.join(", "));
    info.textContent = parts.join(" · ");
    li.appendChild(info);
    var tips = window.RULEKB_TIPS;
    var anchor = e.url.split("#")[1] || "";
    if (withText && tips && Object.prototype.hasOwnProperty.call(tips, anchor) && tips[anchor][2]) {
      var text = document.createElement("span");
      text.className = "rulekb-hit-text";
      text.textContent = tips[anchor][2];
      li.appendChild(text);
    }
    return li;
  }

  function hitList(hits, index, system) {
    var ul = document.createElement("ul");
    ul.className = "rulekb-hit-list";
    hits.forEach(function (hit) { ul.appendChild(hitItem(hit, index, system, true)); });
    return ul;
  }

  function showOnSearchPage(index) {
    var results = document.getElementById("search-results");
    if (!results) return;
    var params = new URLSearchParams(window.location.search);
    var query = params.get("q") || "";
    var here = systemOfSlug(index, params.get("sys") || "");
    var box = document.createElement("section");
    box.id = "rulekb-hits";
    results.parentNode.insertBefore(box, results);
    var input = document.querySelector("form.rulekb-search-form input[name='q']");
    if (input && !input.value) input.value = query;
    if (!query.trim()) {
      var hint = document.createElement("p");
      hint.textContent = "Наберите название правила или слово из его текста — в любой форме, " +
        "с опечаткой или по-английски: «регенерацию», «турбо ускорение», «Advancing», «3D6».";
      box.appendChild(hint);
      return;
    }
    var h = document.createElement("h1");
    h.textContent = "Поиск: «" + query.trim() + "»";
    box.appendChild(h);
    // the filter: every system (the reader's own first), or one of them
    var filter = document.createElement("div");
    filter.className = "rulekb-filter";
    filter.setAttribute("role", "radiogroup");
    filter.setAttribute("aria-label", "Игровая система");
    var choices = [["", "Все системы"]];
    Object.keys(index.systems).forEach(function (id) { choices.push([id, index.systems[id]]); });
    var chosen = "";
    var listHolder = document.createElement("div");
    function render() {
      while (listHolder.firstChild) listHolder.removeChild(listHolder.firstChild);
      var hits = search(index, query, here);
      if (chosen) hits = hits.filter(function (x) { return x.entry.system === chosen; });
      hits = hits.slice(0, MAX_HITS);
      if (!hits.length) {
        var p = document.createElement("p");
        p.textContent = "Ни одно правило не подходит к запросу «" + query + "»" +
          (chosen ? " в системе " + index.systems[chosen] : "") + ".";
        listHolder.appendChild(p);
        return;
      }
      var mine = here ? hits.filter(function (x) { return x.entry.system === here; }) : [];
      if (here && !chosen && mine.length && mine.length < hits.length) {
        var h3 = document.createElement("h3");
        h3.textContent = index.systems[here];
        listHolder.appendChild(h3);
        listHolder.appendChild(hitList(mine, index, ""));
        var h3b = document.createElement("h3");
        h3b.textContent = "Другие системы";
        listHolder.appendChild(h3b);
        listHolder.appendChild(hitList(hits.slice(mine.length), index, ""));
      } else {
        listHolder.appendChild(hitList(hits, index, ""));
      }
    }
    choices.forEach(function (choice) {
      var label = document.createElement("label");
      var radio = document.createElement("input");
      radio.type = "radio";
      radio.name = "rulekb-system";
      radio.value = choice[0];
      radio.checked = choice[0] === chosen;
      radio.addEventListener("change", function () { chosen = radio.value; render(); });
      label.appendChild(radio);
      label.appendChild(document.createTextNode(" " + choice[1]));
      filter.appendChild(label);
    });
    box.appendChild(filter);
    box.appendChild(listHolder);
    render();
  }

  function attachSuggestions(index, input) {
    var list = document.createElement("ul");
    list.className = "rulekb-suggest";
    list.id = "rulekb-suggest-" + Math.random().toString(36).slice(2);
    list.hidden = true;
    list.setAttribute("role", "listbox");
    input.setAttribute("aria-controls", list.id);
    // below the form, not inside it: themes clip forms (overflow: hidden)
    var holder = input.form && input.form.parentNode ? input.form.parentNode : input.parentNode;
    holder.appendChild(list);
    var sysInput = input.form ? input.form.querySelector("input[name='sys']") : null;
    var here = systemOfSlug(index, sysInput ? sysInput.value :
      new URLSearchParams(window.location.search).get("sys") || "");
    var active = -1;
    function mark(i) {
      var items = list.querySelectorAll("li");
      for (var k = 0; k < items.length; k++) {
        items[k].classList.toggle("rulekb-active", k === i);
      }
      active = i;
    }
    input.addEventListener("input", function () {
      while (list.firstChild) list.removeChild(list.firstChild);
      var hits = search(index, input.value, here).slice(0, MAX_SUGGEST);
      hits.forEach(function (hit) { list.appendChild(hitItem(hit, index, here, false)); });
      list.hidden = !hits.length;
      active = -1;
    });
    input.addEventListener("keydown", function (ev) {
      var items = list.querySelectorAll("li");
      if (ev.key === "Escape") { list.hidden = true; return; }
      if (list.hidden || !items.length) return;
      if (ev.key === "ArrowDown") { ev.preventDefault(); mark((active + 1) % items.length); }
      else if (ev.key === "ArrowUp") {
        ev.preventDefault();
        mark((active - 1 + items.length) % items.length);
      } else if (ev.key === "Enter" && active >= 0) {
        ev.preventDefault();
        window.location.href = items[active].querySelector("a").href;
      }
    });
    document.addEventListener("click", function (ev) {
      if (!list.contains(ev.target) && ev.target !== input) list.hidden = true;
    });
  }

  function start() {
    var index = window.RULEKB_SEARCH;
    if (!index) return;
    showOnSearchPage(index);
    var inputs = document.querySelectorAll('form.rulekb-search-form input[name="q"]');
    for (var i = 0; i < inputs.length; i++) attachSuggestions(index, inputs[i]);
  }

  window.rulekbSearch = function (query, system) {
    return search(window.RULEKB_SEARCH, query, system || "");
  };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
