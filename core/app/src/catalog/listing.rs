//! Category and subcategory pages: grouped by subcategory without filters, one
//! filtered page of products with them.

use marque_domain::catalog::{Category, Condition, Page, Product, SearchPage, Subcategory};
use marque_domain::filters::{BrandSlug, ConditionFilter, FilterError, ListingFilters};
use marque_ports::ProductListing;

use super::{CatalogError, CatalogService};

/// What a category page shows.
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryListing {
    pub category: Category,
    pub view: CategoryView,
}

/// Without filters products are grouped by subcategory; with any, they form one list.
#[derive(Debug, Clone, PartialEq)]
pub enum CategoryView {
    /// Each subcategory of the category that has products, in the category's order.
    Grouped(Vec<SubcategoryGroup>),
    /// One page of the category's products that match the filters, newest first.
    Flat(SearchPage),
}

/// One subcategory on a category page without filters.
#[derive(Debug, Clone, PartialEq)]
pub struct SubcategoryGroup {
    pub subcategory: Subcategory,
    /// Every product of the subcategory (its 'See all' count).
    pub total: u64,
    /// Its newest products, at most the preview size.
    pub newest: Vec<Product>,
}

impl CategoryView {
    /// Products the page stands for: the sum of the groups, or the filtered total.
    #[must_use]
    pub fn total(&self) -> u64 {
        match self {
            CategoryView::Grouped(groups) => groups.iter().map(|g| g.total).sum(),
            CategoryView::Flat(page) => page.total,
        }
    }
}

/// What a subcategory page shows: one page of its products matching the filters.
#[derive(Debug, Clone, PartialEq)]
pub struct SubcategoryListing {
    pub category: Category,
    pub subcategory: Subcategory,
    pub page: SearchPage,
}

impl CatalogService {
    /// The category page for `slug`: without filters its subcategories that have
    /// products, each with its count and newest products; with filters one page of
    /// its products that match them, newest first. `page` only counts with filters.
    ///
    /// # Errors
    /// [`CatalogError::CategoryNotFound`] when no category has this slug;
    /// [`CatalogError::FilterInvalid`] when `filters` name a brand the shop does not carry;
    /// [`CatalogError::Unavailable`] when the store fails.
    pub async fn category_listing(
        &self,
        slug: &str,
        filters: &ListingFilters,
        page: Page,
    ) -> Result<CategoryListing, CatalogError> {
        let category = self.category_by_slug(slug).await?;
        if filters.is_empty() {
            let groups = self.subcategory_groups(&category).await?;
            return Ok(CategoryListing { category, view: CategoryView::Grouped(groups) });
        }
        self.check_brands(filters).await?;
        let listing = self.filtered(filters, &category.slug, None, page);
        let slice = self.store.list_products(&listing).await?;
        Ok(CategoryListing { view: CategoryView::Flat(self.page_of(slice, page)), category })
    }

    /// One page of the subcategory `sub_slug` of the category `category_slug`, newest
    /// first, narrowed by `filters`. A page beyond the last is empty but still reports
    /// the real page count.
    ///
    /// # Errors
    /// [`CatalogError::CategoryNotFound`] when no category has this slug or it has no
    /// such subcategory; [`CatalogError::FilterInvalid`] when `filters` name a brand
    /// the shop does not carry; [`CatalogError::Unavailable`] when the store fails.
    pub async fn subcategory_listing(
        &self,
        category_slug: &str,
        sub_slug: &str,
        filters: &ListingFilters,
        page: Page,
    ) -> Result<SubcategoryListing, CatalogError> {
        let category = self.category_by_slug(category_slug).await?;
        let subcategory = category
            .subcategories
            .iter()
            .find(|s| s.slug == sub_slug)
            .cloned()
            .ok_or(CatalogError::CategoryNotFound)?;
        self.check_brands(filters).await?;
        let listing = self.filtered(filters, &category.slug, Some(&subcategory.slug), page);
        let slice = self.store.list_products(&listing).await?;
        Ok(SubcategoryListing { page: self.page_of(slice, page), category, subcategory })
    }

    async fn category_by_slug(&self, slug: &str) -> Result<Category, CatalogError> {
        let categories = self.store.categories().await?;
        categories.into_iter().find(|c| c.slug == slug).ok_or(CatalogError::CategoryNotFound)
    }

    /// One store read per subcategory, each through its own newest-first listing.
    async fn subcategory_groups(&self, category: &Category) -> Result<Vec<SubcategoryGroup>, CatalogError> {
        let mut groups: Vec<SubcategoryGroup> = Vec::new();
        for subcategory in &category.subcategories {
            if groups.iter().any(|g| g.subcategory.slug == subcategory.slug) {
                continue; // a slug listed twice would count its products twice
            }
            let listing = ProductListing {
                category: Some(category.slug.clone()),
                subcategory: Some(subcategory.slug.clone()),
                offset: 0,
                limit: self.group_preview_size,
                ..ProductListing::default()
            };
            let slice = self.store.list_products(&listing).await?;
            if slice.total > 0 {
                groups.push(SubcategoryGroup {
                    subcategory: subcategory.clone(),
                    total: slice.total,
                    newest: slice.products,
                });
            }
        }
        Ok(groups)
    }

    /// A brand filter may only name brands the shop carries; the store is asked only
    /// when there is one.
    async fn check_brands(&self, filters: &ListingFilters) -> Result<(), CatalogError> {
        if filters.oem.is_empty() {
            return Ok(());
        }
        let brands = self.store.brands().await?;
        match filters.oem.values().iter().find(|wanted| !brands.iter().any(|b| b.slug == wanted.as_str())) {
            Some(unknown) => Err(CatalogError::FilterInvalid(FilterError { value: unknown.as_str().to_owned() })),
            None => Ok(()),
        }
    }

    fn filtered(
        &self,
        filters: &ListingFilters,
        category: &str,
        subcategory: Option<&str>,
        page: Page,
    ) -> ProductListing {
        ProductListing {
            brands: filters.oem.values().iter().map(BrandSlug::clone).collect(),
            category: Some(category.to_owned()),
            subcategory: subcategory.map(str::to_owned),
            conditions: filters.product_type.values().iter().map(|c| condition(*c)).collect(),
            fuels: filters.fuel_type.values().iter().map(|f| f.fuel_type()).collect(),
            offset: page.offset(self.page_size),
            limit: self.page_size,
            fits: filters.fits.clone(),
            grades: filters.grade.values().to_vec(),
        }
    }
}

fn condition(filter: ConditionFilter) -> Condition {
    match filter {
        ConditionFilter::Old => Condition::Old,
        ConditionFilter::New => Condition::New,
    }
}

#[cfg(test)]
mod tests;
