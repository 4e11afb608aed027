import { link } from '../testing/contract-fixtures';
import { isNofollowLink } from './priority-rank';

describe('isNofollowLink', () => {
  it.each([
    ['', false],
    ['noopener', false],
    ['nofollowed', false],
    ['un-nofollow', false],
    ['nofollow', true],
    ['sponsored nofollow', true],
    ['ugc\tnofollow\n', true],
  ])('rel %j → %s', (rel, isNofollow) => {
    expect(isNofollowLink(link('https://a.example/', { rel }))).toBe(isNofollow);
  });
});
