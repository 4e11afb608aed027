/**
 * Browser JavaScript (ES5 style, kept as text: it runs in Chromium, not Node) that both the demo
 * site and the render bench embed: `buildContentSection(data)` turns a content XHR's answer —
 * `{ heading, text, links: [{ href, text, rel? }] }` — into the `section#content` a renderer waits
 * for with wait_selector.
 */
export const BUILD_CONTENT_SECTION_FUNCTION = `function buildContentSection(data) {
    var section = document.createElement('section');
    section.id = 'content';
    var heading = document.createElement('h1');
    heading.textContent = data.heading;
    var text = document.createElement('p');
    text.textContent = data.text;
    var list = document.createElement('ul');
    data.links.forEach(function (link) {
      var item = document.createElement('li');
      var anchor = document.createElement('a');
      anchor.href = link.href;
      anchor.textContent = link.text;
      if (link.rel) anchor.rel = link.rel;
      item.appendChild(anchor);
      list.appendChild(item);
    });
    section.appendChild(heading);
    section.appendChild(text);
    section.appendChild(list);
    return section;
  }`;
