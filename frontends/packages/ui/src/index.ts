// The Marque design system: small pieces the shell and every remote share.
export { embeddedJson } from './embedded';
export { ErrorBoundary } from './ErrorBoundary';
export { formatRupees } from './format';
export { HEART_MESSAGES, HeartButton, type HeartPlace } from './HeartButton';
export { firstPaint, useFirstPaintDone } from './first-paint';
export { focusableIn, keepTabInside, useModalDialog } from './modal-dialog';
export { conditionText, fuelText } from './labels';
export {
  canonicalPath,
  setCanonical,
  setDescription,
  shopDescription,
  useCanonicalLink,
  usePageDescription,
} from './page-meta';
export { Pagination, pageWindow } from './Pagination';
export {
  CARD_SIZES,
  pictureAttributes,
  PRODUCT_SIZES,
  THUMB_SIZES,
  webpSrcSet,
  type PictureAttributes,
  type PictureRef,
} from './picture';
export { Price } from './Price';
export { EAGER_CARDS, ProductCard, type ProductCardProduct } from './ProductCard';
export { pageFrom, ProductResults, type ResultsPage } from './ProductResults';
export { richText } from './RichText';
export { StepBar, type CheckoutStep } from './StepBar';
export { brandHref, FOOTER_OEM_BRANDS, productHref, searchHref, SHOP_NAME } from './shop';
export {
  parseShopIdentity,
  shopIdentity,
  useShopIdentity,
  type GrievanceOfficer,
  type ShopIdentity,
} from './shop-identity';
export { documentTitle, useDocumentTitle } from './useDocumentTitle';
export { useRequest, type RequestState } from './useRequest';
