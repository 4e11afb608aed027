import { firstToken, parseMarkdown } from './markdown-tables';

describe('parseMarkdown', () => {
  const text = [
    '# Title', //                                          1
    '', //                                                 2
    '#### Schema `LeaseTask`', //                          3
    '', //                                                 4
    '| field | type |', //                                 5
    '|---|:---:|', //                                      6
    '| url 请求地址 | `string` |', //                       7
    '|   `timeout_ms`   | a \\| b |', //                   8
    'after the table', //                                  9
    '```', //                                              10
    '| inside | fence |', //                              11
    '|---|---|', //                                        12
    '```', //                                              13
  ].join('\n');
  const document = parseMarkdown(text);

  test('finds headings with the column of their text', () => {
    expect(
      document.headings.map((heading) => [
        heading.level,
        heading.text,
        heading.line,
        heading.column,
      ]),
    ).toEqual([
      [1, 'Title', 1, 3],
      [4, 'Schema `LeaseTask`', 3, 6],
    ]);
  });

  test('splits rows into trimmed cells with 1-based positions, skipping fenced code', () => {
    expect(document.tables).toHaveLength(1);
    const [table] = document.tables;
    expect(table.heading?.text).toBe('Schema `LeaseTask`');
    expect(table.header.map((cell) => cell.text)).toEqual(['field', 'type']);
    expect(table.rows.map((row) => row.map((cell) => [cell.text, cell.line, cell.column]))).toEqual(
      [
        [
          ['url 请求地址', 7, 3],
          ['`string`', 7, 14],
        ],
        [
          ['`timeout_ms`', 8, 5],
          ['a | b', 8, 22],
        ],
      ],
    );
  });

  test('takes the first token of a cell, without backticks', () => {
    const [table] = document.tables;
    expect(table.rows.map((row) => firstToken(row[0]))).toEqual(['url', 'timeout_ms']);
  });
});
