// A product's page: create it, or edit it (a save sends only what changed and never the stock), its photographs
// and its stock history with the adjustment form, each shown to the roles that may use them.
import { useT } from '@marque/i18n';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { adminCall } from '../../lib/api/calls';
import type { AdminPhoto, StaffMe } from '../../lib/api/types';
import { useAnswer } from '../../lib/api/use-answer';
import { useMessageText } from '../../lib/form/messages';
import { useForm } from '../../lib/form/use-form';
import { AdminPage } from '../../lib/layout/Page';
import { mayUse } from '../../lib/session/areas';
import { PhotosPanel } from './PhotosPanel';
import { ProductForm } from './ProductForm';
import { bodyOf, changesOf, EMPTY_PRODUCT, PRODUCT_FIELD_CODES, valuesOf, type ProductValues } from './product-form';
import { StockPanel } from './StockPanel';

const ALL = { query: { page: 1, size: 100 } };

export function ProductEditorPage({ me, id }: { me: StaffMe; id?: string }) {
  const t = useT('admin');
  const messageText = useMessageText();
  const [, navigate] = useLocation();
  const categories = useAnswer('GET /api/admin/categories', ALL, !mayUse(me, 'categories'));
  const brands = useAnswer('GET /api/admin/brands', ALL, !mayUse(me, 'brands'));
  const product = useAnswer('GET /api/admin/products/{id}', { path: { id: id ?? '' } }, !id);
  const form = useForm<ProductValues>(EMPTY_PRODUCT, PRODUCT_FIELD_CODES);
  const savedValues = useRef<ProductValues>(EMPTY_PRODUCT);
  const [saved, setSaved] = useState<string | null>(null);
  const [images, setImages] = useState<AdminPhoto[]>([]);
  const { setValues } = form;

  useEffect(() => {
    if (product.state.status !== 'done') return;
    const loaded = product.state.body;
    savedValues.current = valuesOf(loaded);
    setValues(savedValues.current);
    setImages(loaded.images);
  }, [product.state, setValues]);

  if (id && product.state.status === 'loading') return <p role="status">{t('status.loading')}</p>;
  if (id && product.state.status === 'failed') {
    return (
      <p className="admin-alert admin-alert--error" role="alert">
        {messageText(product.state.code, product.state.message)}
      </p>
    );
  }

  const save = () => {
    setSaved(null);
    if (!id) {
      void form.submit(
        (v) => adminCall('POST /api/admin/products', { body: bodyOf(v) }),
        (body) => navigate(`/admin/products/${encodeURIComponent(body._id)}`),
      );
      return;
    }
    const changes = changesOf(savedValues.current, form.values);
    if (Object.keys(changes).length === 0) {
      setSaved(t('product.nothing_changed'));
      return;
    }
    const sent = form.values;
    void form.submit(
      () => adminCall('PATCH /api/admin/products/{id}', { path: { id }, body: changes }),
      () => {
        savedValues.current = sent;
        setSaved(t('product.saved'));
      },
    );
  };

  const title = id ? t('product.edit_title', { name: savedValues.current.name }) : t('product.new_title');
  return (
    <AdminPage title={title} actions={<Link href="/admin/products">{t('product.back')}</Link>}>
      {id ? (
        <p>
          <a href={`/product?productId=${encodeURIComponent(id)}`} target="_blank" rel="noreferrer">
            {t('product.view_in_shop')}
          </a>
        </p>
      ) : null}
      <ProductForm
        form={form}
        creating={!id}
        categories={categories.state.status === 'done' ? categories.state.body.results : []}
        brands={brands.state.status === 'done' ? brands.state.body.results : []}
        saved={saved}
        onSubmit={save}
      />
      {id && mayUse(me, 'photos') ? <PhotosPanel id={id} images={images} onChange={setImages} /> : null}
      {id && mayUse(me, 'stock') ? <StockPanel id={id} /> : null}
    </AdminPage>
  );
}
