//! The catalog as one CSV file in the import's columns (`GET /api/admin/exports/products.csv`),
//! written a page at a time so that it is streamed, never held whole: its header, the published
//! products a window of [`EXPORT_WINDOW`] at a time in id order, then the unpublished ones (the
//! back office's list, a page at a time). Importing the file back writes nothing: every row reads
//! as unchanged ([`marque_domain::catalog::import::export_cells`]).

use std::sync::Arc;

use marque_domain::catalog::import::export_cells;
use marque_domain::catalog::ProductId;
use marque_domain::paging::ListWindow;
use marque_domain::staff::{Area, Staff};
use marque_ports::{AdminProductQuery, AdminProductSort, CatalogEditor, CatalogStore};

use super::file::{export_header, CsvWriter};
use super::ImportError;

/// Published products read per window.
pub const EXPORT_WINDOW: u32 = 1_000;
/// Unpublished products read per page (the back office's largest page).
const UNPUBLISHED_PAGE: u64 = 100;

/// The export's use case: who may, and where it reads.
#[derive(Clone)]
pub struct ExportService {
    /// The store itself (never cached answers): published products in id order.
    catalog: Arc<dyn CatalogStore>,
    /// The back office's store: the unpublished products.
    editor: Arc<dyn CatalogEditor>,
}

impl std::fmt::Debug for ExportService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExportService").finish_non_exhaustive()
    }
}

/// Where an export stands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Next {
    Header,
    /// Published products after this id (from the first when `None`).
    Published(Option<ProductId>),
    /// This page (1-based) of the unpublished products.
    Unpublished(u64),
    Done,
}

/// One export under way: [`ProductExport::next_chunk`] gives the file's next part.
#[derive(Debug)]
pub struct ProductExport {
    service: ExportService,
    next: Next,
    /// Products written so far.
    rows: u64,
}

impl ExportService {
    #[must_use]
    pub fn new(catalog: Arc<dyn CatalogStore>, editor: Arc<dyn CatalogEditor>) -> Self {
        Self { catalog, editor }
    }

    /// Starts an export of every product, published or not.
    ///
    /// # Errors
    /// [`ImportError::Forbidden`] without [`Area::Imports`] (owner, catalog).
    pub fn products(&self, staff: &Staff) -> Result<ProductExport, ImportError> {
        staff.require(Area::Imports)?;
        Ok(self.everything())
    }

    /// An export for the shop's own command line (`marque-server export-csv`), whose operator holds
    /// the database already: no staff role is asked.
    #[must_use]
    pub fn everything(&self) -> ProductExport {
        ProductExport { service: self.clone(), next: Next::Header, rows: 0 }
    }
}

impl ProductExport {
    /// The products given so far.
    #[must_use]
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The file's next part (the header first, then a window of rows), `None` once it is all
    /// given. After an error the export ends: a file cut short is never passed off as whole.
    ///
    /// # Errors
    /// [`ImportError::Unavailable`] when a store failed.
    pub async fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, ImportError> {
        let step = self.step().await;
        if step.is_err() {
            self.next = Next::Done;
        }
        step
    }

    async fn step(&mut self) -> Result<Option<Vec<u8>>, ImportError> {
        let mut out = CsvWriter::default();
        loop {
            match self.next.clone() {
                Next::Done => return Ok(None),
                Next::Header => {
                    self.next = Next::Published(None);
                    return Ok(Some(export_header()));
                }
                Next::Published(after) => {
                    let products = self.service.catalog.products_after(after, EXPORT_WINDOW).await?;
                    let Some(last) = products.last() else {
                        self.next = Next::Unpublished(1);
                        continue;
                    };
                    self.next = Next::Published(Some(last.id.clone()));
                    for product in &products {
                        out.write(export_cells(product));
                    }
                    self.rows += products.len() as u64;
                    return Ok(Some(out.take()));
                }
                Next::Unpublished(page) => {
                    let window = ListWindow::new(Some(page), Some(UNPUBLISHED_PAGE))
                        .map_err(|e| ImportError::Unavailable(format!("past the last page: {e}")))?;
                    let query = AdminProductQuery {
                        published: Some(false),
                        sort: AdminProductSort::Newest,
                        window,
                        ..AdminProductQuery::default()
                    };
                    let slice = self
                        .service
                        .editor
                        .products(&query)
                        .await
                        .map_err(|e| ImportError::Unavailable(e.to_string()))?;
                    if slice.products.is_empty() {
                        self.next = Next::Done;
                        return Ok(None);
                    }
                    self.next = Next::Unpublished(page + 1);
                    for product in &slice.products {
                        out.write(export_cells(product));
                    }
                    self.rows += slice.products.len() as u64;
                    return Ok(Some(out.take()));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use marque_contract_tests::fixtures::product;
    use marque_domain::catalog::Product;
    use marque_domain::staff::{StaffId, StaffRole};
    use marque_ports::{CatalogStoreError, MockCatalogEditor, MockCatalogStore, ProductSlice};

    use super::*;

    fn staff(role: StaffRole) -> Staff {
        Staff { id: StaffId("s1".into()), email: "ravi@marque.in".into(), name: "Ravi".into(), role }
    }

    fn products(prefix: &str, n: usize) -> Vec<Product> {
        (0..n)
            .map(|i| product(&format!("{prefix}{i:05}")).sku(&format!("{}-{i:05}", prefix.to_uppercase())).build())
            .collect()
    }

    /// A store of `published` products in id order, windows as the port's contract says.
    fn store(published: Vec<Product>) -> MockCatalogStore {
        let mut catalog = MockCatalogStore::new();
        catalog.expect_products_after().returning(move |after, limit| {
            let after = after.map(|a| a.0).unwrap_or_default();
            Ok(published.iter().filter(|p| p.id.0 > after).take(limit as usize).cloned().collect())
        });
        catalog
    }

    /// The back office's store of `hidden` products, a page at a time.
    fn editor(hidden: Vec<Product>) -> MockCatalogEditor {
        let mut editor = MockCatalogEditor::new();
        editor.expect_products().returning(move |query| {
            assert_eq!(query.published, Some(false), "only the unpublished ones");
            let offset = usize::try_from(query.window.offset()).expect("an offset");
            let limit = usize::try_from(query.window.limit()).expect("a limit");
            let products = hidden.iter().skip(offset).take(limit).cloned().collect();
            Ok(ProductSlice { products, total: hidden.len() as u64 })
        });
        editor
    }

    async fn whole(export: &mut ProductExport) -> Result<(Vec<Vec<u8>>, String), ImportError> {
        let mut parts = Vec::new();
        while let Some(part) = export.next_chunk().await? {
            parts.push(part);
        }
        let text = String::from_utf8(parts.concat()).expect("UTF-8");
        Ok((parts, text))
    }

    #[tokio::test]
    async fn every_product_is_exported_once_a_window_at_a_time_published_then_not() {
        let published = products("p", 2_500);
        let hidden = products("u", 150);
        let s = ExportService::new(Arc::new(store(published)), Arc::new(editor(hidden)));
        let mut export = s.products(&staff(StaffRole::Catalog)).expect("a catalog member may");
        let (parts, text) = whole(&mut export).await.expect("the whole file");
        // The header, three windows of published products, two pages of unpublished ones.
        assert_eq!(parts.len(), 1 + 3 + 2);
        let mut lines = text.lines();
        let header = marque_domain::catalog::import::ImportHeader::exported().join(",");
        assert_eq!(lines.next(), Some(header.as_str()));
        let skus: Vec<&str> = lines.map(|l| l.split(',').next().expect("a SKU")).collect();
        let mut expected: Vec<String> = (0..2_500).map(|i| format!("P-{i:05}")).collect();
        expected.extend((0..150).map(|i| format!("U-{i:05}")));
        assert_eq!(skus, expected, "each product once, in order");
        assert_eq!(export.next_chunk().await, Ok(None), "over stays over");
    }

    #[tokio::test]
    async fn only_owners_and_catalog_staff_export_and_a_failed_read_ends_the_file() {
        let s = ExportService::new(Arc::new(MockCatalogStore::new()), Arc::new(MockCatalogEditor::new()));
        assert!(matches!(s.products(&staff(StaffRole::Fulfilment)), Err(ImportError::Forbidden(_))));
        assert!(s.products(&staff(StaffRole::Owner)).is_ok());

        let mut failing = MockCatalogStore::new();
        failing.expect_products_after().returning(|_, _| Err(CatalogStoreError::Unavailable { reason: "down".into() }));
        let s = ExportService::new(Arc::new(failing), Arc::new(MockCatalogEditor::new()));
        let mut export = s.products(&staff(StaffRole::Catalog)).expect("may");
        assert!(export.next_chunk().await.expect("the header").is_some());
        assert!(matches!(export.next_chunk().await, Err(ImportError::Unavailable(_))));
        assert_eq!(export.next_chunk().await, Ok(None), "nothing after a failure: the file is not passed off as whole");
    }
}
