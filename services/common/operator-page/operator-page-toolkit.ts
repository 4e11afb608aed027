/**
 * Browser code every operator page shares, prepended to the page's own script (same file, so the
 * page's CSP `script-src 'self'` holds). It owns the token: taken from the URL fragment
 * (`/operator#token=…`, which browsers never send to the server), kept in this tab's
 * sessionStorage, removed from the address bar; asked for with a form when missing or refused.
 * It also owns the refresh controls and the status line, and builds table rows with textContent
 * only — no HTML is ever parsed from data.
 *
 * The page's document must have: #status, #token-form with #token-input, #view, #refresh-button,
 * #auto-refresh, #forget-button. `OperatorPage.start({ tokenKey, askText, refresh })` wires them;
 * `refresh(page)` fetches with `page.getJson(path)` (or `page.send(method, path, body)` for
 * actions) and renders with `page.fillTable`, the one table renderer of every operator page.
 */
export const OPERATOR_PAGE_TOOLKIT_SCRIPT = `'use strict';
var OperatorPage = (function () {
  var REFRESH_MS = 5000;

  function byId(id) { return document.getElementById(id); }

  function setStatus(text, isError) {
    var status = byId('status');
    status.textContent = text;
    status.className = isError ? 'error' : '';
  }

  function readTokenFromFragment(tokenKey) {
    var match = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
    if (match) {
      sessionStorage.setItem(tokenKey, decodeURIComponent(match[1]));
      // The fragment never reaches the server; drop it from the address bar and history too.
      history.replaceState(null, '', window.location.pathname + window.location.search);
    }
    return sessionStorage.getItem(tokenKey);
  }

  // The one table renderer. columns: [{ value(item) → text, className: string | (item) → string,
  // append(cell, item) to add elements such as buttons }]. options: { rowAttributes(item) → object,
  // emptyText }. An empty list gets one row saying so, spanning every column.
  function fillTable(id, rows, columns, options) {
    var settings = options || {};
    var body = byId(id).querySelector('tbody');
    body.replaceChildren();
    if (rows.length === 0) {
      var empty = document.createElement('tr');
      var note = document.createElement('td');
      note.textContent = settings.emptyText || 'nothing to show';
      note.className = 'empty';
      note.colSpan = columns.length;
      empty.appendChild(note);
      body.appendChild(empty);
      return;
    }
    rows.forEach(function (item) {
      var tr = document.createElement('tr');
      if (settings.rowAttributes) {
        var attributes = settings.rowAttributes(item);
        Object.keys(attributes).forEach(function (name) { tr.setAttribute(name, attributes[name]); });
      }
      columns.forEach(function (column) {
        var cell = document.createElement('td');
        if (column.value) cell.textContent = column.value(item);
        var className = typeof column.className === 'function' ? column.className(item) : column.className;
        if (className) cell.className = className;
        if (column.append) column.append(cell, item);
        tr.appendChild(cell);
      });
      body.appendChild(tr);
    });
  }

  function number(value) { return Number(value).toLocaleString('en-US'); }

  function percent(ratio) { return (Number(ratio) * 100).toFixed(1) + '%'; }

  function start(options) {
    var timer = null;
    var page = {
      byId: byId,
      fillTable: fillTable,
      number: number,
      percent: percent,
      setStatus: setStatus,
      // Any call with the token; resolves { status, body, retryAfter } whatever the status (only
      // a network failure rejects), so a page can show a 429 or a 400 as the answer it is.
      send: function (method, path, body) {
        var init = {
          method: method,
          headers: { Authorization: 'Bearer ' + sessionStorage.getItem(options.tokenKey), Accept: 'application/json' },
          cache: 'no-store',
        };
        if (body !== undefined) {
          init.headers['Content-Type'] = 'application/json';
          init.body = JSON.stringify(body);
        }
        return fetch(path, init).then(function (response) {
          return response.text().then(function (text) {
            var parsed = null;
            try { parsed = text ? JSON.parse(text) : null; } catch (error) { parsed = null; }
            return { status: response.status, body: parsed, retryAfter: response.headers.get('Retry-After') };
          });
        });
      },
      // A GET whose answer the page needs: a refused token and any other failure reject.
      getJson: function (path) {
        return page.send('GET', path).then(function (answer) {
          var body = answer.body || {};
          if (answer.status === 401 || answer.status === 403) {
            var refused = new Error('refused');
            refused.isRefused = true;
            refused.errorCode = body.error_code;
            throw refused;
          }
          if (answer.status < 200 || answer.status > 299) {
            throw new Error('answered ' + answer.status + (body.message ? ': ' + body.message : ''));
          }
          return answer.body;
        });
      },
    };

    function askForToken(message, isError) {
      byId('view').hidden = true;
      byId('token-form').hidden = false;
      setStatus(message, isError);
      byId('token-input').focus();
    }

    function refresh() {
      if (!sessionStorage.getItem(options.tokenKey)) {
        askForToken(options.askText, false);
        return Promise.resolve();
      }
      return options.refresh(page).then(function () {
        byId('token-form').hidden = true;
        byId('view').hidden = false;
      }).catch(function (error) {
        if (error.isRefused) {
          sessionStorage.removeItem(options.tokenKey);
          askForToken('The token was refused (' + error.errorCode + '). ' + options.askText, true);
          return;
        }
        setStatus('Cannot load the data: ' + error.message + ' (retrying)', true);
      });
    }

    function schedule() {
      clearInterval(timer);
      if (byId('auto-refresh').checked) timer = setInterval(refresh, REFRESH_MS);
    }

    byId('token-form').addEventListener('submit', function (event) {
      event.preventDefault();
      sessionStorage.setItem(options.tokenKey, byId('token-input').value.trim());
      byId('token-input').value = '';
      refresh();
    });
    byId('refresh-button').addEventListener('click', refresh);
    byId('auto-refresh').addEventListener('change', schedule);
    byId('forget-button').addEventListener('click', function () {
      sessionStorage.removeItem(options.tokenKey);
      askForToken('Token forgotten. ' + options.askText, false);
    });

    page.refresh = refresh;
    if (readTokenFromFragment(options.tokenKey)) refresh(); else askForToken(options.askText, false);
    schedule();
    return page;
  }

  return { start: start };
})();
`;

/** The style every operator page shares; a page appends its own rules. */
export const OPERATOR_PAGE_BASE_CSS = `
[hidden] { display: none !important; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 1rem 1.5rem; color: #1d2330; }
h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
h2 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
h2 small { font-weight: normal; color: #5a6270; }
#status { color: #5a6270; margin: 0 0 1rem; }
#status.error { color: #a4161a; font-weight: 600; }
form, .controls { display: flex; flex-wrap: wrap; gap: .6rem; align-items: center; margin-bottom: 1rem; }
.hint { flex-basis: 100%; color: #5a6270; margin: 0; }
input[type=number] { width: 5rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: .8rem; }
.card { border: 1px solid #d5d9e0; border-radius: 6px; padding: .7rem .9rem; display: flex; flex-direction: column; }
.figure { font-size: 1.6rem; font-weight: 600; font-variant-numeric: tabular-nums; }
.columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 0 1.5rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #e4e7ec; vertical-align: top; }
th { background: #f3f5f8; font-weight: 600; }
.number { text-align: right; font-variant-numeric: tabular-nums; }
.empty { color: #5a6270; font-style: italic; }
`;
