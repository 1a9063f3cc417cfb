// The header: the shop's name, the part search and the main links.
import { SHOP_NAME } from '@marque/ui';
import { Link } from 'wouter';
import { SearchBox } from './SearchBox';

export function Header() {
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link href="/" className="site-header__logo" aria-label={`${SHOP_NAME} home`}>
          <span aria-hidden="true" className="site-header__mark">
            M
          </span>
          {SHOP_NAME}
        </Link>
        <nav className="site-header__nav" aria-label="Main">
          <Link href="/">Home</Link>
          <Link href="/about">About us</Link>
          <Link href="/contactus">Contact us</Link>
        </nav>
        <SearchBox />
      </div>
    </header>
  );
}
