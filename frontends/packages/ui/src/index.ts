// The Marque design system: small pieces the shell and every remote share.
export { ErrorBoundary } from './ErrorBoundary';
export { formatRupees } from './format';
export { Pagination, pageWindow } from './Pagination';
export { Price } from './Price';
export { ProductCard, type ProductCardProduct } from './ProductCard';
export { pageFrom, ProductResults, type ResultsPage } from './ProductResults';
export { documentTitle, useDocumentTitle } from './useDocumentTitle';
export { useRequest, type RequestState } from './useRequest';
export {
  brandHref,
  ENQUIRY_PHONE,
  FOOTER_OEM_BRANDS,
  PRIVACY_EMAIL,
  productHref,
  searchHref,
  SHOP_NAME,
  SUPPORT_EMAIL,
} from './shop';
