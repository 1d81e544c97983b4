/*
 * The reference pages' bar and request signing (served as a static file of each page; plain browser JavaScript).
 *
 * The bar links the references (the whole and one per audience) and, on a page with bank or partner operations, asks
 * once per browser tab for a key id and secret of each signed credential. They stay in this tab's sessionStorage;
 * nothing is sent to the server but the signature. Swagger UI's request interceptor (its initializer) hands every
 * "Try it out" request to `referenceSigning.sign`, which adds the credential's three headers when the request is one
 * of that credential's operations (`window.referenceSettings`, written by the server from its routes):
 *   key id; timestamp (RFC 3339, Jakarta time +07:00, to the second); lowercase hex HMAC-SHA256 under the secret of
 *   METHOD \n path?query (as sent) \n timestamp \n raw body (empty without one) — the walkthroughs' string to sign.
 */
(function () {
  'use strict';
  var settings = window.referenceSettings || { current: '', pages: [], credentials: [] };
  var STORE = 'reference-signing-keys';
  var status = null;

  function stored() {
    try {
      return JSON.parse(window.sessionStorage.getItem(STORE) || '{}');
    } catch (error) {
      return {};
    }
  }

  function say(text) {
    if (status) status.textContent = text;
  }

  function timestamp(now) {
    return new Date(now + 7 * 3600 * 1000).toISOString().slice(0, 19) + '+07:00';
  }

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), function (byte) {
      return byte.toString(16).padStart(2, '0');
    }).join('');
  }

  async function hmacSha256(secret, text) {
    var encoder = new TextEncoder();
    var key = await window.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return hex(await window.crypto.subtle.sign('HMAC', key, encoder.encode(text)));
  }

  function credentialOf(method, pathname) {
    return settings.credentials.find(function (credential) {
      return credential.operations.some(function (operation) {
        return operation.method === method && new RegExp(operation.pattern).test(pathname);
      });
    });
  }

  function hasHeader(headers, name) {
    return Object.keys(headers).some(function (header) {
      return header.toLowerCase() === name.toLowerCase() && headers[header];
    });
  }

  function setHeader(headers, name, value) {
    Object.keys(headers).forEach(function (header) {
      if (header.toLowerCase() === name.toLowerCase()) delete headers[header];
    });
    headers[name] = value;
  }

  // Adds the signature headers to a request of a signed operation, when its credential's key was entered.
  async function sign(request) {
    var url = new URL(request.url, window.location.href);
    var method = String(request.method || 'GET').toUpperCase();
    var credential = credentialOf(method, url.pathname);
    if (!credential) return request;
    var key = stored()[credential.kind];
    request.headers = request.headers || {};
    // A partner request that carries a bearer token (entered under Authorize) is not signed as well.
    if (credential.kind === 'partner' && hasHeader(request.headers, 'Authorization')) return request;
    if (!key || !key.keyId || !key.secret) {
      say('Not signed: enter the ' + credential.label.toLowerCase() + ' above to sign ' + method + ' ' + url.pathname + '.');
      return request;
    }
    if (!window.crypto || !window.crypto.subtle) {
      say('Not signed: this browser offers Web Crypto only on https:// or localhost pages.');
      return request;
    }
    // The body is signed exactly as it is sent.
    if (request.body !== undefined && request.body !== null && typeof request.body !== 'string')
      request.body = JSON.stringify(request.body);
    var body = request.body || '';
    var target = url.pathname + url.search;
    var time = timestamp(Date.now());
    var signature = await hmacSha256(key.secret, method + '\n' + target + '\n' + time + '\n' + body);
    setHeader(request.headers, credential.headers.keyId, key.keyId);
    setHeader(request.headers, credential.headers.timestamp, time);
    setHeader(request.headers, credential.headers.signature, signature);
    // Answered by the server, not the browser's cache (a lookup may be cached 30 s): the signature is what is tried.
    request.cache = 'no-store';
    say('Signed ' + method + ' ' + target + ' with ' + key.keyId + ' at ' + time + '.');
    return request;
  }

  window.referenceSigning = { sign: sign };

  function element(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      node.setAttribute(name, attributes[name]);
    });
    (children || []).forEach(function (child) {
      node.append(child);
    });
    return node;
  }

  function bar() {
    var nav = element('nav', { class: 'reference-nav', 'aria-label': 'References' }, ['References: ']);
    settings.pages.forEach(function (page) {
      var link = element('a', { href: page.href }, [page.title]);
      if (page.href === settings.current + '/') link.setAttribute('aria-current', 'page');
      nav.append(link);
    });
    var section = element('section', { class: 'reference-bar', id: 'reference-bar' }, [nav]);
    if (settings.credentials.length === 0) return section;

    var keys = stored();
    var rows = settings.credentials.map(function (credential) {
      var saved = keys[credential.kind] || {};
      var prefix = 'reference-key-' + credential.kind;
      var keyId = element('input', {
        id: prefix + '-key-id',
        placeholder: credential.headers.keyId,
        autocomplete: 'off',
        spellcheck: 'false',
      });
      var secret = element('input', { id: prefix + '-secret', type: 'password', placeholder: 'secret', autocomplete: 'off' });
      keyId.value = saved.keyId || '';
      secret.value = saved.secret || '';
      return {
        credential: credential,
        keyId: keyId,
        secret: secret,
        node: element('div', { class: 'reference-key' }, [element('span', {}, [credential.label]), keyId, secret]),
      };
    });
    var save = element('button', { type: 'button', id: 'reference-keys-save' }, ['Use these keys']);
    var forget = element('button', { type: 'button', id: 'reference-keys-forget', class: 'reference-secondary' }, ['Forget']);
    status = element('span', { class: 'reference-status', id: 'reference-signing-status', role: 'status' }, []);
    save.addEventListener('click', function () {
      var next = stored();
      rows.forEach(function (row) {
        var entered = { keyId: row.keyId.value.trim(), secret: row.secret.value };
        if (entered.keyId && entered.secret) next[row.credential.kind] = entered;
        else delete next[row.credential.kind];
      });
      window.sessionStorage.setItem(STORE, JSON.stringify(next));
      var names = rows.filter(function (row) {
        return next[row.credential.kind];
      });
      say(
        names.length
          ? 'Try it out now signs with ' + names.map((row) => next[row.credential.kind].keyId).join(', ') + '.'
          : 'No key entered: requests are not signed.',
      );
    });
    forget.addEventListener('click', function () {
      window.sessionStorage.removeItem(STORE);
      rows.forEach(function (row) {
        row.keyId.value = '';
        row.secret.value = '';
      });
      say('Keys forgotten.');
    });
    var signing = element('details', { class: 'reference-signing', open: '' }, [
      element('summary', {}, ['Sign “Try it out” requests']),
      element('p', {}, [
        'Enter a key id and secret once: they stay in this browser tab only, and requests carry just the HMAC-SHA256 signature (' +
          'the three headers of the walkthroughs). Sandbox keys work the same.',
      ]),
    ]);
    rows.forEach(function (row) {
      signing.append(row.node);
    });
    signing.append(save, forget, status);
    section.append(signing);
    return section;
  }

  // Below Swagger UI's top bar once it is drawn (and again should it ever be redrawn without the bar).
  var section = bar();
  function place() {
    if (document.body.contains(section)) return;
    var topbar = document.querySelector('#swagger-ui .topbar');
    if (topbar) topbar.after(section);
  }
  new MutationObserver(place).observe(document.documentElement, { childList: true, subtree: true });
  document.addEventListener('DOMContentLoaded', place);
})();
