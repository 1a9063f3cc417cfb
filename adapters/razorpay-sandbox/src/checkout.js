/* Marque's Razorpay sandbox: a stand-in for checkout.razorpay.com/v1/checkout.js in dev and tests.
 * `new Razorpay(options).open()` shows a test bank in a modal; its Success and Failure buttons pay
 * through the sandbox that served this script. No eval, no inline handlers, styles set through
 * the DOM, so a strict Content-Security-Policy allows it. */
(function () {
  'use strict';
  var BASE = "__SANDBOX_BASE__";

  function node(tag, attributes, style, children) {
    var el = document.createElement(tag);
    Object.keys(attributes).forEach(function (name) {
      if (name === 'text') el.textContent = attributes[name];
      else el.setAttribute(name, attributes[name]);
    });
    Object.assign(el.style, style);
    (children || []).forEach(function (child) { el.appendChild(child); });
    return el;
  }

  function replaceChildren(parent, children) {
    parent.textContent = '';
    children.forEach(function (child) { parent.appendChild(child); });
  }

  function button(text, colour) {
    return node('button', { type: 'button', text: text }, {
      flex: '1', padding: '10px 16px', border: '0', borderRadius: '6px', background: colour,
      color: '#fff', font: 'inherit', fontWeight: '600', cursor: 'pointer'
    });
  }

  function rupees(paise) {
    return '\u20B9' + (paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }

  function call(path, init) {
    return fetch(BASE + path, init).then(function (response) {
      return response.json().then(function (body) { return { ok: response.ok, body: body }; });
    });
  }

  function describe(body, fallback) {
    return body && body.error && body.error.description ? body.error.description : fallback;
  }

  function Razorpay(options) {
    if (!(this instanceof Razorpay)) return new Razorpay(options);
    this.options = options || {};
    this.callbacks = {};
    this.overlay = null;
  }

  Razorpay.prototype.on = function (name, callback) {
    (this.callbacks[name] = this.callbacks[name] || []).push(callback);
    return this;
  };

  Razorpay.prototype.close = function () {
    if (!this.overlay) return;
    this.overlay.remove();
    this.overlay = null;
    if (this.returnFocus && typeof this.returnFocus.focus === 'function') this.returnFocus.focus();
  };

  Razorpay.prototype.dismiss = function () {
    this.close();
    var modal = this.options.modal || {};
    if (typeof modal.ondismiss === 'function') modal.ondismiss();
  };

  Razorpay.prototype.open = function () {
    var self = this;
    var options = this.options;
    this.close();
    this.returnFocus = document.activeElement;

    var close = node('button', { type: 'button', 'aria-label': 'Close', text: '\u00D7' }, {
      position: 'absolute', top: '8px', right: '8px', border: '0', background: 'transparent',
      fontSize: '24px', lineHeight: '1', cursor: 'pointer', color: '#444'
    });
    close.addEventListener('click', function () { self.dismiss(); });
    this.content = node('div', {}, {}, [node('p', { role: 'status', text: 'Checking the order\u2026' }, {})]);
    var dialog = node('div', {
      role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'razorpay-sandbox-title', tabindex: '-1'
    }, {
      position: 'relative', background: '#fff', color: '#111', borderRadius: '10px', padding: '24px',
      width: 'min(360px, calc(100vw - 32px))', boxShadow: '0 10px 40px rgba(0,0,0,0.3)',
      fontFamily: 'system-ui, sans-serif'
    }, [close, node('h2', { id: 'razorpay-sandbox-title', text: 'Test bank' }, { margin: '0 0 12px', fontSize: '20px' }), this.content]);
    var overlay = node('div', { 'data-razorpay-sandbox': '' }, {
      position: 'fixed', inset: '0', background: 'rgba(0,0,0,0.55)', display: 'flex',
      alignItems: 'center', justifyContent: 'center', zIndex: '2147483647'
    }, [dialog]);
    overlay.addEventListener('keydown', function (event) { self.keydown(event, dialog); });
    document.body.appendChild(overlay);
    this.overlay = overlay;
    dialog.focus();

    var query = '?key_id=' + encodeURIComponent(options.key || '');
    call('/checkout/orders/' + encodeURIComponent(options.order_id || '') + query).then(function (result) {
      if (self.overlay !== overlay) return;
      if (result.ok) self.showBank(result.body);
      else self.showError(describe(result.body, 'This order cannot be paid'));
    }, function () {
      if (self.overlay === overlay) self.showError('The test bank cannot be reached');
    });
  };

  Razorpay.prototype.showBank = function (order) {
    var self = this;
    var success = button('Success', '#15803d');
    var failure = button('Failure', '#b91c1c');
    success.addEventListener('click', function () { self.pay('success', [success, failure]); });
    failure.addEventListener('click', function () { self.pay('failure', [success, failure]); });
    replaceChildren(this.content, [
      node('p', { text: this.options.name || '' }, { margin: '0', fontWeight: '600' }),
      node('p', { text: this.options.description || '' }, { margin: '4px 0 0', color: '#555' }),
      node('p', { text: rupees(order.amount) }, { margin: '12px 0 20px', fontSize: '28px', fontWeight: '700' }),
      node('div', {}, { display: 'flex', gap: '12px' }, [success, failure])
    ]);
    success.focus();
  };

  Razorpay.prototype.showError = function (message) {
    replaceChildren(this.content, [node('p', { role: 'alert', text: message }, { color: '#b91c1c', margin: '0' })]);
  };

  Razorpay.prototype.pay = function (outcome, buttons) {
    var self = this;
    var options = this.options;
    var prefill = options.prefill || {};
    buttons.forEach(function (b) { b.disabled = true; });
    call('/pay', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        order_id: options.order_id, key_id: options.key, outcome: outcome,
        email: prefill.email || null, contact: prefill.contact || null
      })
    }).then(function (result) {
      if (!result.ok) {
        self.showError(describe(result.body, 'The payment cannot be made'));
        return;
      }
      self.close();
      if (result.body.error) {
        (self.callbacks['payment.failed'] || []).forEach(function (callback) { callback(result.body); });
      } else if (typeof options.handler === 'function') {
        options.handler(result.body);
      }
    }, function () {
      self.showError('The test bank cannot be reached');
    });
  };

  /* Escape dismisses; Tab stays inside the dialog. */
  Razorpay.prototype.keydown = function (event, dialog) {
    if (event.key === 'Escape') {
      event.preventDefault();
      this.dismiss();
      return;
    }
    if (event.key !== 'Tab') return;
    var buttons = Array.prototype.filter.call(dialog.querySelectorAll('button'), function (b) { return !b.disabled; });
    var first = buttons[0];
    var last = buttons[buttons.length - 1];
    var active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialog)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  window.Razorpay = Razorpay;
})();
